"""The server's memory allocator: where Debian's libjemalloc2 is installed (scripts/test installs
it), `guesswork serve` runs itself again with jemalloc preloaded, unless GUESSWORK_MALLOC=system;
glibc's malloc otherwise. BENCHMARKS.md (2026-11-28, afternoon) has why."""
import os

import pytest

from support.server import Server

INSTALLED = any(
    os.path.exists(f"{directory}/libjemalloc.so.2")
    for directory in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")
)


def mapped_libraries(server):
    with open(f"/proc/{server.process.pid}/maps") as maps:
        return maps.read()


@pytest.mark.skipif(not INSTALLED, reason="libjemalloc2 is not installed: glibc's malloc is used")
def test_a_server_allocates_with_jemalloc_where_it_is_installed():
    # jemalloc prints its statistics at exit when its own environment variable asks, which it
    # does only if it served the server's allocations (it starts on its first malloc).
    server = Server(env={"MALLOC_CONF": "stats_print:true"})
    with server:
        assert "libjemalloc.so.2" in mapped_libraries(server)
        server.stop()
        log = server.read_log()
    assert server.process.returncode == 0, log[-2000:]
    assert "memory allocator: jemalloc" in log
    assert "jemalloc statistics" in log, "jemalloc is mapped but another malloc served the server"


def test_glibc_malloc_when_the_operator_says_so():
    with Server(env={"GUESSWORK_MALLOC": "system", "LD_PRELOAD": ""}) as server:
        assert "libjemalloc" not in mapped_libraries(server)
        assert "memory allocator: glibc malloc" in server.read_log()


def test_a_jemalloc_that_cannot_be_loaded_leaves_glibc_malloc_and_no_loop():
    # Named in LD_PRELOAD but not there: the loader ignores it, and serve must not run itself
    # again and again to load it.
    with Server(env={"LD_PRELOAD": "/nonexistent/libjemalloc.so.2"}) as server:
        assert "libjemalloc" not in mapped_libraries(server)
        assert "memory allocator: glibc malloc" in server.read_log()
