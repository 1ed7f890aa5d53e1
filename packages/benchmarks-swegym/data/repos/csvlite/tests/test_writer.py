from csvlite import write_rows, quote_field


def test_plain():
    assert write_rows([["a", 1], ["b", 2]]) == "a,1\nb,2\n"


def test_quote_delimiter():
    assert quote_field("x,y") == '"x,y"'
