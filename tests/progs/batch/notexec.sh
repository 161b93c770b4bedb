#!/bin/sh
echo not executable
