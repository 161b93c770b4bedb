# SPDX-License-Identifier: MIT
import socket, struct, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.settimeout(5)
h = lambda i, qd=1: struct.pack('>HHHHHH', i, 0x100, qd, 0, 0, 0)
tail = struct.pack('>HH', 1, 1)
bad = [
  h(1) + b'\xc0\x0c' + tail,                      # pointer to itself
  h(2) + b'\x05ab' ,                              # label past the packet
  h(3) + b'\x00' + tail,                          # root name
  h(4) + (b'\x3f' + b'a' * 63) * 5 + b'\0' + tail,  # > 255
  h(5, 200) + b'\x01a\x00' + tail * 1,            # many questions
  b'\x00',                                        # short
  h(6) + b'\x40' + b'a' * 64 + b'\0' + tail,      # label > 63
]
for q in bad:
    u.sendto(q, ('127.0.0.53', 53))
forge = [b'x\nsandbox: exit 0\x1b[31m', b'a A -> 10.9.9.9 A -> 1.1.1.1 x', b'e.vil']
for i, l in enumerate(forge):
    u.sendto(h(10 + i) + bytes([len(l)]) + l + b'\0' + tail, ('127.0.0.53', 53))
q = h(99) + b'\x02ok\x07example\x00' + tail
u.sendto(q, ('127.0.0.53', 53))
while True:
    r, _ = u.recvfrom(600)
    if r[:2] == b'\x00\x63':
        break
print(socket.inet_ntoa(r[-4:]))
