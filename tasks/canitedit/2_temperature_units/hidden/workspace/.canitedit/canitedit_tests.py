### START TESTS ###
if True:  # pragma: no cover
    assert convert(100) == 212
    assert convert(0, "F") == 32
    assert abs(convert(0, "K") - 273.15) < 1e-9
    assert abs(convert(-273.15, "K")) < 1e-9
    try:
        convert(10, "X")
        assert False, "an unknown unit must raise ValueError"
    except ValueError:
        pass
