"""Sets of runs as the measuring scripts read them: folders, and .tar.xz archives of folders
extracted into a temporary folder (only plain files and folders inside them)."""
import lzma
import re
import sys
import tarfile
from pathlib import Path


def fail(message):
    print(f"{Path(sys.argv[0]).stem}: {message}", file=sys.stderr)
    sys.exit(2)


def unpack(archive, folder):
    """Extracts ARCHIVE (.tar.xz) into FOLDER. Only plain files and folders inside it are
    accepted (a committed set is data, nothing else)."""
    try:
        with tarfile.open(archive, "r:xz") as tar:
            for member in tar.getmembers():
                name = Path(member.name)
                if name.is_absolute() or ".." in name.parts or not (member.isfile() or member.isdir()):
                    fail(f"{archive}: {member.name}: not a plain file or folder inside the archive")
            tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    # EOFError: xz data cut short; LZMAError: xz data corrupt (a bad download), met as read
    except (tarfile.TarError, lzma.LZMAError, OSError, EOFError) as error:
        fail(f"{archive}: not a readable .tar.xz ({error})")


def folders_of(members, into):
    """{member: the folder to read} for each SET member in order: a folder as given, a .tar.xz
    extracted into a folder of its own below INTO."""
    folders = {}
    for k, member in enumerate(members):
        if Path(member).is_dir():
            folders[member] = Path(member)
        elif member.endswith(".tar.xz") and Path(member).is_file():
            folders[member] = into / f"{k}_{Path(member).name}"
            unpack(member, folders[member])
        else:
            fail(f"{member}: neither a folder nor a .tar.xz file")
    return folders


def natural(path):
    """A sort key that puts run2/ before run10/: the digits of each part of the path as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(path))]


def bare(name):
    """A row's name as fleet names it (without Google Benchmark's time suffix)."""
    return re.sub(r"/(manual_time|real_time|process_time)$", "", name)
