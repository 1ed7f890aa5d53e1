from unitconv import format_quantity, parse_quantity, human_bytes


def test_parse():
    assert parse_quantity("3.5 km") == (3.5, "km")


def test_format_trims_zeros():
    assert format_quantity(1.5, "km") == "1.5 km"


def test_human_bytes_binary():
    assert human_bytes(1536) == "1.5 KiB"
