"""The Python exceptions mirror the protocol's errors: one class per code in schemas/env-server/errors.json, same name."""
import json
import os

import pwp
from pwp.errors import error_from_wire

ERRORS = os.path.join(os.path.dirname(__file__), '..', '..', 'schemas', 'env-server', 'errors.json')


def test_every_protocol_error_has_its_python_exception_by_code_and_name():
    with open(ERRORS) as f:
        errors = json.load(f)['errors']
    assert len(errors) >= 12
    for e in errors:
        err = error_from_wire({'code': e['code'], 'message': 'm', 'data': {'name': e['name']}})
        assert type(err).__name__ == e['name'], e
        assert isinstance(err, pwp.PwpError) and err.code == e['code'] and str(err) == 'm'


def test_an_unknown_code_is_still_a_pwp_error_with_its_code():
    err = error_from_wire({'code': -31999, 'message': 'new'})
    assert type(err) is pwp.PwpError and err.code == -31999
