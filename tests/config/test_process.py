"""A server process, once it has loaded the site: the broker connection opened and what
it loaded frozen out of the garbage collector's scans."""

import gc
import importlib.util
from pathlib import Path

import pytest

from config import process


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()


def test_the_loaded_objects_are_frozen_and_the_broker_warmed(monkeypatch, unfrozen) -> None:
    warmed: list[bool] = []
    monkeypatch.setattr(process, "broker_warm_up", lambda: warmed.append(True))
    gc.unfreeze()
    process.server_process_ready()
    assert warmed == [True]
    assert gc.get_freeze_count() > 10_000
    assert gc.isenabled()


def test_a_gunicorn_worker_gets_ready_after_loading_the_site(monkeypatch) -> None:
    readied: list[bool] = []
    monkeypatch.setattr(process, "server_process_ready", lambda: readied.append(True))
    path = Path(__file__).resolve().parents[2] / "config" / "gunicorn.conf.py"
    spec = importlib.util.spec_from_file_location("gunicorn_conf", path)
    assert spec is not None
    assert spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    conf.post_worker_init(worker=None)
    assert readied == [True]
