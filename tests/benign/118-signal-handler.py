#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Install a signal handler and deliver the signal to ourselves."""
import os
import signal

received = []


def on_usr1(signum, frame):
    received.append(signal.Signals(signum).name)


signal.signal(signal.SIGUSR1, on_usr1)
os.kill(os.getpid(), signal.SIGUSR1)
signal.raise_signal(signal.SIGUSR1)
print("received:", received)
assert received == ["SIGUSR1", "SIGUSR1"]
