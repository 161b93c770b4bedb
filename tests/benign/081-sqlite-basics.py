#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Create a small SQLite database, insert rows, run a few queries."""
import sqlite3

db = sqlite3.connect("/work/inventory.db")
db.execute("CREATE TABLE IF NOT EXISTS items (name TEXT PRIMARY KEY, qty INTEGER, price REAL)")
db.executemany("INSERT OR REPLACE INTO items VALUES (?, ?, ?)",
               [("bolt", 100, 0.05), ("nut", 250, 0.03), ("gear", 12, 2.50)])
db.commit()
for name, value in db.execute("SELECT name, qty * price FROM items ORDER BY 2 DESC"):
    print(f"{name:6} {value:8.2f}")
(total,) = db.execute("SELECT SUM(qty) FROM items").fetchone()
assert total == 362, total
print("total quantity", total)
db.close()
