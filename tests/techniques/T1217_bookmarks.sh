#!/bin/sh
# SPDX-License-Identifier: MIT
# What the user browses: the browsers' bookmarks and history.
cat "$HOME/.config/google-chrome/Default/Bookmarks" 2>/dev/null
cat "$HOME/.config/chromium/Default/Bookmarks" 2>/dev/null
ls "$HOME/.mozilla/firefox" 2>/dev/null
for db in "$HOME"/.mozilla/firefox/*/places.sqlite "$HOME/.config/google-chrome/Default/History"; do
	sqlite3 "file:$db?mode=ro" 'SELECT url FROM moz_places LIMIT 20' 2>/dev/null
	sqlite3 "file:$db?mode=ro" 'SELECT url FROM urls LIMIT 20' 2>/dev/null
done
