# intercode-ctf/check_flag.py: the final answer against the hidden flag, both trimmed, compared as
# InterCode's checker does (flag.lower() == gold.lower()); and oracle_flag.py, the oracle's reading
# of a solution script's output.
import subprocess
import sys

import pytest


@pytest.fixture
def check(graders, tmp_path):
    def run(answer, flag="picoCTF{Ab_c}\n"):
        (tmp_path / "flag.txt").write_text(flag)
        answer_file = tmp_path / "answer.txt"
        answer_file.unlink(missing_ok=True)
        if answer is not None:
            answer_file.write_text(answer)
        r = subprocess.run([sys.executable, "-I", str(graders / "intercode-ctf/check_flag.py"), str(answer_file), str(tmp_path / "flag.txt")],
                           capture_output=True, text=True)
        return r.returncode, r.stdout.strip()
    return run


def test_accepts_the_flag_with_white_space_around_it_trimmed_and_any_case_as_intercode_does(check):
    assert check("picoCTF{Ab_c}") == (0, "flag accepted")
    assert check("picoctf{ab_c}") == (0, "flag accepted")
    assert check("  picoCTF{Ab_c}\n\n") == (0, "flag accepted")
    assert check("picoCTF{Ab_c}", flag="  picoCTF{Ab_c}  \n") == (0, "flag accepted")


@pytest.mark.parametrize("answer", ["Ab_c", "The flag is picoCTF{Ab_c}", "picoCTF{Ab_c}.", "picoCTF{Ab_c"])
def test_refuses_the_inside_alone_or_words_around_the_flag_without_printing_it(check, answer):
    code, out = check(answer)
    assert (code, out) == (1, "wrong flag")
    assert "Ab_c" not in out


@pytest.mark.parametrize("answer", ["", "  \n", None])
def test_refuses_an_empty_or_missing_answer(check, answer):
    assert check(answer) == (1, "no flag was given")


@pytest.fixture
def oracle(graders, tmp_path):
    def run(solution, prefix="picoCTF"):
        (tmp_path / "solve.py").write_text(solution)
        r = subprocess.run([sys.executable, str(graders / "intercode-ctf/oracle_flag.py"), sys.executable, str(tmp_path / "solve.py"), prefix],
                           capture_output=True, text=True, cwd=tmp_path)
        return r.returncode, r.stdout.strip()
    return run


def test_the_oracle_answers_a_whole_flag_found_in_the_output(oracle):
    assert oracle("print('Welcome back... your flag:')\nprint('\\t\\tpicoCTF{x_1}  ')\n") == (0, "picoCTF{x_1}")


def test_the_oracle_wraps_a_solution_that_prints_only_the_inside_of_the_flag(oracle):
    # Like InterCode's VaultDoor solutions, which print the password between the braces.
    assert oracle("print('d35cr_4m')\n") == (0, "picoCTF{d35cr_4m}")
    assert oracle("print('abc')\n", prefix="") == (0, "abc")


def test_the_oracle_fails_when_the_solution_prints_nothing(oracle):
    assert oracle("import sys; sys.exit(3)\n")[0] == 1
