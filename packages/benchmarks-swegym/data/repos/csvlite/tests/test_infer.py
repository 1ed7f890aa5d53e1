from csvlite import infer_type, convert_column


def test_ints():
    assert infer_type(["1", "2", "-3"]) == "int"


def test_strings():
    assert infer_type(["a", "1"]) == "str"


def test_convert_ints():
    assert convert_column(["1", "", "3"]) == [1, None, 3]
