#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import argparse
from dataclasses import dataclass, field, asdict


@dataclass
class Job:
    name: str
    retries: int = 3
    tags: list = field(default_factory=list)


parser = argparse.ArgumentParser(description="describe a job")
parser.add_argument("name")
parser.add_argument("--retries", type=int, default=3)
parser.add_argument("--tag", action="append", default=[])
args = parser.parse_args(["nightly-build", "--retries", "5", "--tag", "ci", "--tag", "linux"])
job = Job(args.name, args.retries, args.tag)
print(asdict(job))
assert job.retries == 5 and job.tags == ["ci", "linux"]
