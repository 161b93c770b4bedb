#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import configparser

cfg = configparser.ConfigParser()
cfg["server"] = {"host": "localhost", "port": "8080"}
cfg["database"] = {"path": "/work/app.db", "timeout": "2.5"}
with open("/work/app.ini", "w") as f:
    cfg.write(f)

back = configparser.ConfigParser()
back.read("/work/app.ini")
print(back.sections())
print("port + 1 =", back.getint("server", "port") + 1)
print("timeout =", back.getfloat("database", "timeout"))
