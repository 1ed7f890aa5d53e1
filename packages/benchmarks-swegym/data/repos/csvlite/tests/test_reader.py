import pytest

from csvlite import read_rows, read_records, CsvError


def test_simple_rows():
    assert read_rows("a,b\nc,d\n") == [["a", "b"], ["c", "d"]]


def test_quoted_delimiter():
    assert read_rows('a,"b,c"\n') == [["a", "b,c"]]


def test_records():
    assert read_records("name,age\nada,36\n") == [{"name": "ada", "age": "36"}]


def test_unterminated_quote():
    with pytest.raises(CsvError):
        read_rows('a,"b\n')
