#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""SQLite: a transaction rolled back, one committed, and a backup copy."""
import sqlite3

db = sqlite3.connect("/tmp/ledger.db")
db.execute("DROP TABLE IF EXISTS account")
db.execute("CREATE TABLE account (name TEXT PRIMARY KEY, balance INTEGER CHECK (balance >= 0))")
db.executemany("INSERT INTO account VALUES (?, ?)", [("alice", 100), ("bob", 50)])
db.commit()


def transfer(src, dst, amount):
    try:
        with db:
            db.execute("UPDATE account SET balance = balance + ? WHERE name = ?", (amount, dst))
            db.execute("UPDATE account SET balance = balance - ? WHERE name = ?", (amount, src))
        return True
    except sqlite3.IntegrityError:
        return False


print("transfer 30:", transfer("alice", "bob", 30))
print("transfer 500:", transfer("bob", "alice", 500))
print(dict(db.execute("SELECT name, balance FROM account ORDER BY name")))
backup = sqlite3.connect("/tmp/ledger-backup.db")
db.backup(backup)
print("backup rows:", backup.execute("SELECT COUNT(*) FROM account").fetchone()[0])
backup.close()
db.close()
