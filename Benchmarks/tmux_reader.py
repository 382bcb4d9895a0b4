"""A terminal reader driven in a detached tmux session, for the benchmarks: start it, wait for a
state of its screen (never for a time), send keys, read its peak memory (VmHWM)."""
import os
import random
import subprocess
import time

TUI_WIDTH, TUI_HEIGHT = 100, 40
MARKER = "BENCHSTART0001"  # the first words of a book from make_big_epub.py
END_MARKER = "BENCHEND0001"  # its last paragraph


def tmux(socket, *args, capture=False):
    result = subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", *args], stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return result.stdout.decode("utf-8", "replace") if capture else result.returncode


class TmuxReader:
    """One reader process in a detached tmux session of TUI_WIDTH x TUI_HEIGHT on a private
    server; the screen is read with capture-pane (polled every millisecond or so)."""

    def __init__(self, command, env, width=None, height=None):
        self.socket = f"lectern-bench-{os.getpid()}-{random.randrange(1 << 30)}"
        self.session = "bench"
        assignments = [f"{key}={value}" for key, value in sorted(env.items())
                       if key in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "PATH", "LECTERN_IMAGES")]
        self.started = time.perf_counter()
        tmux(self.socket, "new-session", "-d", "-s", self.session, "-x", str(width or TUI_WIDTH), "-y", str(height or TUI_HEIGHT),
             "env", "TERM=xterm-256color", "LANG=C.UTF-8", *assignments, *command)
        self.pid = int(tmux(self.socket, "display-message", "-p", "-t", self.session, "#{pane_pid}", capture=True).strip() or 0)

    def screen(self):
        return tmux(self.socket, "capture-pane", "-p", "-t", self.session, capture=True)

    def wait(self, predicate, timeout=60):
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            text = self.screen()
            if predicate(text):
                return time.perf_counter(), text
            time.sleep(0.001)
        raise RuntimeError("timed out; screen:\n" + self.screen())

    def keys(self, *keys):
        start = time.perf_counter()
        tmux(self.socket, "send-keys", "-t", self.session, *keys)
        return start

    def peak_rss_kb(self):
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def close(self):
        if self.pid:
            try:
                os.kill(self.pid, 9)
            except OSError:
                pass
        tmux(self.socket, "kill-session", "-t", self.session)
        try:
            os.unlink(os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.socket))
        except OSError:
            pass
