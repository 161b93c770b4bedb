#!/bin/sh
echo hello
exit 0
