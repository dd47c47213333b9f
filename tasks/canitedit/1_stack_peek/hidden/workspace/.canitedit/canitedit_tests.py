### START TESTS ###
if True:  # pragma: no cover
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.peek() == 2
    assert len(s) == 2
    assert s.pop() == 2
    assert s.peek() == 1
    s.pop()
    try:
        s.peek()
        assert False, "peek on an empty stack must raise IndexError"
    except IndexError:
        pass
