"""The files git tracks in a checkout, for the tree checks (check_links.py, check_tree_size.py)."""
import os
import subprocess


def tracked_files(root):
    """The tracked paths of the checkout at root, or None when root is not its top."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            return None
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [p for p in out.split("\0") if p]
