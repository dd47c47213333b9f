### START TESTS ###
if True:  # pragma: no cover
    f = word_frequencies("The cat saw the dog. The dog ran!")
    assert f["the"] == 3
    assert f["dog"] == 2
    assert f["ran"] == 1
    assert "The" not in f
    assert "dog." not in f
    assert word_frequencies("... !!") == {}
