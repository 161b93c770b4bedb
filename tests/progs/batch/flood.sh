#!/bin/sh
# writes until the output limit stops it
exec yes flood
