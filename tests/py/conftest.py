"""Shared fixtures of the PyOpenCL tests: a context and queue on the Weft platform, chosen by
name (other platforms such as pocl may be installed), one per test module."""
import pyopencl as cl
import pytest


@pytest.fixture(scope="module")
def ctx():
    platforms = [p for p in cl.get_platforms() if p.name == "Weft"]
    assert platforms, "the Weft platform is not visible (OCL_ICD_VENDORS?)"
    devices = platforms[0].get_devices()
    assert len(devices) == 1
    return cl.Context(devices)


@pytest.fixture(scope="module")
def queue(ctx):
    return cl.CommandQueue(ctx)
