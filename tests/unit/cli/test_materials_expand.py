"""A folder upload takes the course's files, not what a project folder keeps beside them."""

from pathlib import Path

from services.cli.materials import expand


def test_a_folder_upload_skips_hidden_dependency_and_build_folders(tmp_path: Path):
    for name in [
        "lab3/app.py", "lab3/schema.sql", "lab3/Dockerfile", "notes/lec01.tex",
        "lab3/.venv/lib/python3.12/site-packages/flask/app.py", "lab3/.git/config",
        "lab3/node_modules/left-pad/index.js", "lab3/__pycache__/app.cpython-312.pyc",
        "lab3/build/app.py", ".hidden.md", "lab3/photo.exe",
    ]:  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    picked = [p.relative_to(tmp_path).as_posix() for p in expand([tmp_path])]
    assert picked == ["lab3/Dockerfile", "lab3/app.py", "lab3/schema.sql", "notes/lec01.tex"]
