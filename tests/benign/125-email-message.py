#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Compose a MIME message and save it to a file (nothing is sent)."""
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

msg = EmailMessage()
msg["From"] = "builder@example.invalid"
msg["To"] = "team@example.invalid"
msg["Subject"] = "Nightly build report"
msg.set_content("The nightly build passed.\n")
msg.add_attachment(b"build ok\n", maintype="text", subtype="plain", filename="summary.txt")
with open("/work/report.eml", "wb") as f:
    f.write(bytes(msg))

with open("/work/report.eml", "rb") as f:
    parsed = BytesParser(policy=policy.default).parse(f)
print(parsed["Subject"], [p.get_filename() for p in parsed.iter_attachments()])
