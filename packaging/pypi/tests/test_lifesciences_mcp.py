"""The Python module against a fake MCP server (fake_server.py): answers, errors, tables,
and the one server process (reused, restarted, timed out, closed).

Run from the repository root: python3 -m unittest discover -s packaging/pypi/tests
"""

import logging
import os
import signal
import subprocess
import sys
import threading
import time
import unittest
import warnings
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(os.path.dirname(HERE), "python")
sys.path.insert(0, SOURCE)

import lifesciences_mcp  # noqa: E402
from lifesciences_mcp import _client  # noqa: E402

# The fake server's warnings are asserted where they matter, not printed.
logging.getLogger("lifesciences_mcp").addHandler(logging.NullHandler())

FAKE = [sys.executable, os.path.join(HERE, "fake_server.py")]

try:
    import pandas  # noqa: F401

    HAS_PANDAS = True
except ImportError:
    HAS_PANDAS = False


def fake_client(**options):
    return lifesciences_mcp.Client(FAKE, **options)


def wait_exited(pid, seconds=5.0):
    """Whether process `pid` is gone (or a zombie nobody reaped) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(")")[-1].split()[0] == "Z":
                    return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


class Answers(unittest.TestCase):
    def setUp(self):
        self.client = fake_client()
        self.addCleanup(self.client.close)

    def test_a_success_is_its_structured_content_as_a_dict(self):
        answer = self.client.call("fake_lookup", id="ENSG00000141510")
        self.assertEqual(answer["id"], "ENSG00000141510")
        self.assertEqual(answer["provenance"]["sources"][0]["database"], "Fake")

    def test_arguments_may_come_as_a_dict_and_keywords(self):
        answer = self.client.call("fake_echo", {"tool": "x", "arguments": 1}, limit=5)
        self.assertEqual(answer["echo"], {"tool": "x", "arguments": 1, "limit": 5})

    def test_numpy_values_and_sets_are_sent_as_their_json(self):
        class Scalar:  # numpy.int64's interface, as a DataFrame cell hands it back
            def item(self):
                return 5

        class Column:  # a numpy array's or a pandas Series'
            def tolist(self):
                return ["TP53", "MDM2"]

        answer = self.client.call("fake_echo", limit=Scalar(), ids=Column(), tags={"b", "a"})
        self.assertEqual(answer["echo"], {"limit": 5, "ids": ["TP53", "MDM2"], "tags": ["a", "b"]})

    def test_arguments_json_cannot_carry_are_refused_before_sending(self):
        with self.assertRaisesRegex(ValueError, "NaN or infinite"):
            self.client.call("fake_echo", score=float("nan"))
        with self.assertRaisesRegex(TypeError, "of type object cannot be sent as JSON"):
            self.client.call("fake_echo", what=object())
        seen = self.client.call("fake_seen")["seen"]
        self.assertEqual(seen.count("tools/call"), 1, "only fake_seen reached the server")

    def test_an_error_envelope_raises_tool_error_with_code_message_and_hint(self):
        with self.assertRaises(lifesciences_mcp.ToolError) as raised:
            self.client.call("fake_fail", string_id="9606.ENSP00000269305")
        error = raised.exception
        self.assertEqual(error.code, "UNRESOLVED_ENTITY")
        self.assertEqual(error.tool, "fake_fail")
        self.assertIn("STRING:9606.ENSP00000269305", error.message)
        self.assertEqual(error.hint, "Use format 'STRING:9606.ENSP00000269305'")
        self.assertEqual(error.invalid_input, "9606.ENSP00000269305")
        self.assertIsNone(error.retry_after_secs)
        self.assertIn("UNRESOLVED_ENTITY", str(error))
        self.assertIn("hint: Use format", str(error))
        self.assertIsInstance(error, lifesciences_mcp.LifesciencesError)

    def test_rate_limited_carries_the_seconds_to_wait(self):
        with self.assertRaises(lifesciences_mcp.ToolError) as raised:
            self.client.call("fake_rate_limited")
        self.assertEqual(raised.exception.code, "RATE_LIMITED")
        self.assertEqual(raised.exception.retry_after_secs, 7)

    def test_an_unknown_tool_is_a_protocol_error(self):
        with self.assertRaises(lifesciences_mcp.ProtocolError) as raised:
            self.client.call("no_such_tool")
        self.assertEqual(raised.exception.code, -32602)
        self.assertIn("tools/call no_such_tool", str(raised.exception))

    def test_a_picture_comes_back_as_its_content_blocks(self):
        answer = self.client.call("fake_picture")
        self.assertEqual(answer["content"][0]["type"], "image")

    def test_a_server_log_message_reaches_python_logging(self):
        with self.assertLogs("lifesciences_mcp", level="WARNING") as logs:
            self.client.call("fake_list")
        self.assertEqual(logs.records[0].levelno, logging.WARNING)
        self.assertIn("fake_list warns", logs.output[0])

    def test_the_handshake_precedes_the_calls(self):
        seen = self.client.call("fake_seen")["seen"]
        self.assertEqual(seen[:3], ["initialize", "notifications/initialized", "tools/call"])
        self.assertEqual(self.client.server_info["name"], "fake-lifesciences")

    def test_tools_lists_the_served_tools(self):
        self.assertEqual([t["name"] for t in self.client.tools()], ["fake_lookup"])


class Tables(unittest.TestCase):
    def setUp(self):
        self.client = fake_client()
        self.addCleanup(self.client.close)

    expected = [
        {"symbol": "TP53", "score": "0.999", "note": 'a "quoted", text\nover two lines'},
        {"symbol": "NA", "score": "", "note": "a gene named NA"},
        {"symbol": "MDM2", "score": "0.9", "note": "plain"},
    ]

    def test_rows_reads_the_whole_csv_export_without_pandas(self):
        with mock.patch.dict(sys.modules, {"pandas": None}):
            self.assertEqual(self.client.rows("fake_list"), self.expected)

    def test_rows_reads_a_tsv_export_too(self):
        self.assertEqual(self.client.rows("fake_list", export="tsv"), self.expected)

    def test_export_gives_the_object_and_the_text_with_its_provenance_lines(self):
        info, text = self.client.export("fake_list", export="tsv")
        self.assertEqual(info["uri"], "export://fake-tsv.tsv")
        self.assertEqual(info["rows"], 3)
        self.assertTrue(text.startswith("# Fake export of fake_list\n"))

    def test_a_row_count_other_than_the_exports_raises(self):
        with self.assertRaisesRegex(lifesciences_mcp.LifesciencesError, "says 2 rows but 3"):
            self.client.rows("fake_list", rows_short=1)

    def test_an_incomplete_export_warns(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rows = self.client.rows("fake_list", incomplete=True)
        self.assertEqual(len(rows), 3)
        self.assertEqual(len(caught), 1)
        self.assertIn("not the whole list", str(caught[0].message))

    def test_an_answer_without_an_export_raises(self):
        with self.assertRaisesRegex(lifesciences_mcp.LifesciencesError, "without an export"):
            self.client.rows("fake_lookup", id="x")

    def test_table_without_pandas_names_the_install_and_starts_nothing(self):
        with mock.patch.dict(sys.modules, {"pandas": None}):
            with self.assertRaises(ImportError) as raised:
                self.client.table("fake_list")
        self.assertIn('pip install "lifesciences-mcp[pandas]"', str(raised.exception))
        self.assertIn("pip install pandas", str(raised.exception))
        self.assertEqual(raised.exception.name, "pandas")
        self.assertIsNone(self.client.pid, "no server is started for a table pandas cannot hold")

    @unittest.skipUnless(HAS_PANDAS, "pandas is not installed")
    def test_table_is_a_dataframe_of_the_whole_list(self):
        for export_format in ("csv", "tsv"):
            frame = self.client.table("fake_list", export=export_format)
            self.assertEqual(list(frame.columns), ["symbol", "score", "note"])
            self.assertEqual(len(frame), 3)
            self.assertEqual(frame["symbol"].tolist(), ["TP53", "NA", "MDM2"])
            self.assertEqual(str(frame["score"].dtype), "float64")
            self.assertTrue(frame["score"].isna().tolist()[1])
            self.assertEqual(frame["note"][0], 'a "quoted", text\nover two lines')
            self.assertEqual(
                frame.attrs["provenance"], ["Fake export of fake_list", "source: Fake, release 1"]
            )
            self.assertEqual(frame.attrs["export"]["rows"], 3)

    def test_importing_the_module_does_not_import_pandas(self):
        probe = "import sys, lifesciences_mcp; print('pandas' in sys.modules)"
        out = subprocess.run(
            [sys.executable, "-c", probe],
            env=dict(os.environ, PYTHONPATH=SOURCE),
            capture_output=True,
            text=True,
            check=True,
        )
        self.assertEqual(out.stdout.strip(), "False")


class OneProcess(unittest.TestCase):
    def test_every_call_goes_to_one_process_started_on_first_use(self):
        client = fake_client()
        self.addCleanup(client.close)
        self.assertIsNone(client.pid)
        pids = {client.call("fake_lookup", id=str(i))["pid"] for i in range(5)}
        self.assertEqual(pids, {client.pid})
        seen = client.call("fake_seen")["seen"]
        self.assertEqual(seen.count("initialize"), 1)

    def test_threads_get_their_own_answers(self):
        client = fake_client()
        self.addCleanup(client.close)
        answers = {}

        def ask(i):
            # The later ones answer first.
            answers[i] = client.call("fake_echo", n=i, delay=(10 - i) * 0.02)["echo"]["n"]

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        self.assertEqual(answers, {i: i for i in range(10)})
        self.assertEqual(client.call("fake_seen")["seen"].count("initialize"), 1)

    def test_a_server_that_dies_mid_call_fails_it_and_the_next_call_starts_another(self):
        client = fake_client()
        self.addCleanup(client.close)
        first = client.call("fake_lookup", id="a")["pid"]
        with self.assertRaises(lifesciences_mcp.ServerError) as raised:
            client.call("fake_exit")
        self.assertEqual(raised.exception.returncode, 3)
        self.assertIn("exiting on purpose", raised.exception.stderr)
        self.assertIn("the next call starts a new one", str(raised.exception))
        second = client.call("fake_lookup", id="b")["pid"]
        self.assertNotEqual(first, second)
        self.assertEqual(client.pid, second)

    @unittest.skipUnless(hasattr(signal, "SIGKILL"), "needs SIGKILL")
    def test_a_server_killed_between_calls_is_started_again(self):
        client = fake_client()
        self.addCleanup(client.close)
        first = client.call("fake_lookup", id="a")["pid"]
        os.kill(first, signal.SIGKILL)
        self.assertTrue(wait_exited(first))
        # As a later call would find it: its stdout closed, which the reader sees at once.
        deadline = time.monotonic() + 5
        while client._session.alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        second = client.call("fake_lookup", id="b")["pid"]
        self.assertNotEqual(first, second)

    def test_a_call_past_the_timeout_raises_and_is_cancelled(self):
        client = fake_client(timeout=0.5)
        self.addCleanup(client.close)
        started = time.monotonic()
        with self.assertRaises(lifesciences_mcp.CallTimeout) as raised:
            client.call("fake_slow", seconds=30)
        self.assertLess(time.monotonic() - started, 5)
        self.assertIsInstance(raised.exception, TimeoutError)
        self.assertIn("no answer within 0.5 s", str(raised.exception))
        self.assertIn("LIFESCIENCES_MCP_TIMEOUT", str(raised.exception))
        # The same process goes on answering, and was told of the cancellation.
        client.timeout = 30
        self.assertIn("notifications/cancelled", client.call("fake_seen")["seen"])

    def test_an_interrupted_wait_cancels_the_request(self):
        from lifesciences_mcp import _session

        client = fake_client()
        self.addCleanup(client.close)
        client.call("fake_lookup", id="a")

        class Interrupted(threading.Event):
            def wait(self, timeout=None):
                raise KeyboardInterrupt

        waiter = _session._Waiter()
        waiter.event = Interrupted()
        with mock.patch.object(_session, "_Waiter", return_value=waiter):
            with self.assertRaises(KeyboardInterrupt):
                client.call("fake_slow", seconds=30)
        self.assertIn("notifications/cancelled", client.call("fake_seen")["seen"])

    def test_close_ends_the_process_and_a_later_call_starts_one(self):
        client = fake_client()
        pid = client.call("fake_lookup", id="a")["pid"]
        client.close()
        self.assertIsNone(client.pid)
        self.assertTrue(wait_exited(pid))
        self.assertNotEqual(client.call("fake_lookup", id="b")["pid"], pid)
        _client._close_all()  # what runs at interpreter exit
        self.assertIsNone(client.pid)

    def test_the_module_functions_share_the_interpreters_client(self):
        lifesciences_mcp.configure(FAKE)
        self.addCleanup(lifesciences_mcp.close)
        first = lifesciences_mcp.call("fake_lookup", id="a")["pid"]
        self.assertEqual(lifesciences_mcp.call("fake_lookup", id="b")["pid"], first)
        self.assertEqual(lifesciences_mcp.client().pid, first)
        self.assertEqual(len(lifesciences_mcp.rows("fake_list")), 3)
        # configure() again ends that process; the next call starts the new client's.
        lifesciences_mcp.configure(FAKE)
        self.assertTrue(wait_exited(first))
        self.assertNotEqual(lifesciences_mcp.call("fake_lookup", id="c")["pid"], first)


class Starting(unittest.TestCase):
    def test_env_adds_and_removes_variables_and_keeps_the_modules_own(self):
        with mock.patch.dict(
            os.environ, {"LIFESCIENCES_MCP_TIMEOUT": "120", "FAKE_DROPPED": "x", "FAKE_KEPT": "y"}
        ):
            client = fake_client(env={"LIFESCIENCES_CACHE_DIR": "/tmp/cache", "FAKE_DROPPED": None})
            self.addCleanup(client.close)
            self.assertEqual(client.timeout, 120.0)
            names = ["LIFESCIENCES_CACHE_DIR", "FAKE_DROPPED", "FAKE_KEPT", "LIFESCIENCES_MCP_TIMEOUT"]
            env = client.call("fake_env", names=names)["env"]
        self.assertEqual(
            env,
            {
                "LIFESCIENCES_CACHE_DIR": "/tmp/cache",
                "FAKE_DROPPED": None,
                "FAKE_KEPT": "y",
                "LIFESCIENCES_MCP_TIMEOUT": None,
            },
        )

    def test_a_timeout_that_is_not_seconds_is_refused(self):
        with mock.patch.dict(os.environ, {"LIFESCIENCES_MCP_TIMEOUT": "soon"}):
            with self.assertRaisesRegex(ValueError, "LIFESCIENCES_MCP_TIMEOUT='soon'"):
                fake_client()
        with self.assertRaises(ValueError):
            fake_client(timeout=0)

    def test_the_binary_variable_names_the_server_to_start(self):
        with mock.patch.dict(os.environ, {"LIFESCIENCES_MCP_BINARY": sys.executable}):
            self.assertEqual(lifesciences_mcp.find_binary(), sys.executable)
        missing = os.path.join(HERE, "no-such-binary")
        with mock.patch.dict(os.environ, {"LIFESCIENCES_MCP_BINARY": missing}):
            with self.assertRaisesRegex(lifesciences_mcp.ServerError, "LIFESCIENCES_MCP_BINARY="):
                lifesciences_mcp.find_binary()

    def test_without_a_binary_the_error_says_how_to_get_one(self):
        environ = {k: v for k, v in os.environ.items() if k != "LIFESCIENCES_MCP_BINARY"}
        with mock.patch.dict(os.environ, environ, clear=True), mock.patch.object(
            _client, "_scripts_dirs", return_value=[HERE]
        ), mock.patch.object(_client.shutil, "which", return_value=None):
            with self.assertRaisesRegex(lifesciences_mcp.ServerError, "pip install lifesciences-mcp"):
                lifesciences_mcp.find_binary()

    def test_the_installed_binary_next_to_the_interpreter_comes_before_path(self):
        folder = os.path.join(HERE, "__scripts__")
        os.makedirs(folder, exist_ok=True)
        binary = os.path.join(folder, _client._EXE)
        with open(binary, "w") as f:
            f.write("")
        os.chmod(binary, 0o755)
        self.addCleanup(lambda: (os.remove(binary), os.rmdir(folder)))
        environ = {k: v for k, v in os.environ.items() if k != "LIFESCIENCES_MCP_BINARY"}
        with mock.patch.dict(os.environ, environ, clear=True), mock.patch.object(
            _client, "_scripts_dirs", return_value=[folder]
        ), mock.patch.object(_client.shutil, "which", return_value="/elsewhere/lifesciences-mcp"):
            self.assertEqual(lifesciences_mcp.find_binary(), binary)

    def test_a_program_that_exits_at_once_is_a_server_error_with_its_stderr(self):
        client = lifesciences_mcp.Client(
            [sys.executable, "-c", "import sys; sys.stderr.write('no such command\\n'); sys.exit(2)"]
        )
        self.addCleanup(client.close)
        with self.assertRaises(lifesciences_mcp.ServerError) as raised:
            client.call("fake_lookup")
        self.assertEqual(raised.exception.returncode, 2)
        self.assertIn("no such command", str(raised.exception))

    def test_a_program_that_never_answers_initialize_is_stopped(self):
        client = lifesciences_mcp.Client(
            [sys.executable, "-c", "import time; time.sleep(60)"], start_timeout=0.5
        )
        self.addCleanup(client.close)
        with self.assertRaisesRegex(lifesciences_mcp.ServerError, "did not answer initialize"):
            client.call("fake_lookup")

    def test_a_refused_initialize_is_a_server_error(self):
        client = fake_client(env={"FAKE_REFUSE_INITIALIZE": "1"})
        self.addCleanup(client.close)
        with self.assertRaisesRegex(lifesciences_mcp.ServerError, "refused initialize"):
            client.call("fake_lookup")

    def test_a_missing_program_is_a_server_error(self):
        client = lifesciences_mcp.Client([os.path.join(HERE, "no-such-binary")])
        with self.assertRaisesRegex(lifesciences_mcp.ServerError, "cannot start"):
            client.call("fake_lookup")


if __name__ == "__main__":
    unittest.main()
