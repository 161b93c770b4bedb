#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Loads a CSV into SQLite in memory and queries it.
import csv
import io
import sqlite3

data = io.StringIO("city,temp\nOslo,3\nRome,15\nOslo,5\n")
db = sqlite3.connect(":memory:")
db.execute("create table t(city, temp)")
db.executemany("insert into t values (?, ?)", ((r["city"], int(r["temp"])) for r in csv.DictReader(data)))
print(db.execute("select city, avg(temp) from t group by city order by city").fetchall())
