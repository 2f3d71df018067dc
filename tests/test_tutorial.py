"""docs/tutorial-homebrew.md: the commands it shows give the results it shows."""

import re
from pathlib import Path

from stratagem.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "tutorial-homebrew.md").read_text(encoding="utf-8")


def run(capsys, command: str) -> tuple[int, str]:
    args = command.split()[1:]
    args = [str(ROOT / a) if a.startswith("docs/") else a for a in args]
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def shown_commands() -> list[str]:
    return re.findall(r"```sh\n(stratagem [^\n]+)\n```", DOC)


def test_every_command_of_the_tutorial_runs(capsys):
    commands = shown_commands()
    assert len(commands) == 3
    for command in commands:
        code, out = run(capsys, command)
        assert code == 0, (command, out)


def test_the_book_row_then_the_house_row(capsys):
    book, house = [c for c in shown_commands() if c.startswith("stratagem battle")]
    _, out = run(capsys, book)
    assert "Hobgoblins lose 100 (40%): 100 dead" in out
    assert "Watchmen: 60 + 85 = 145; Hobgoblins: 34 + 75 = 109. Watchmen win by 36." in out
    _, out = run(capsys, house)
    assert "Hobgoblins lose 75 (30%): 75 dead" in out


def test_the_overlay_in_the_doc_is_the_file_on_disk():
    block = re.search(r"```yaml\n(kind: setting.*?)```", DOC, re.DOTALL).group(1)
    on_disk = (ROOT / "docs" / "tutorial" / "house-rules.yaml").read_text(encoding="utf-8")
    assert block.strip() in on_disk


def test_a_typo_in_the_overlay_is_located(tmp_path, capsys):
    text = (ROOT / "docs" / "tutorial" / "house-rules.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "house-rules.yaml"
    broken.write_text(text.replace("l_loss: 30", "l_los: 30"), encoding="utf-8")
    code = main(["validate", str(broken)])
    out = capsys.readouterr()
    assert code == 1
    assert "did you mean 'l_loss'" in out.out + out.err
