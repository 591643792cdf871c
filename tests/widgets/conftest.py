"""Shared by the explorers' tests: every test closes the figures it drew."""

import matplotlib.pyplot as plt
import pytest


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")
