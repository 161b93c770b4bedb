# SPDX-License-Identifier: MIT
import socket, struct
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(2000):
    u.sendto(b'x' * 1000, ('10.0.0.1', 4444))
held = []
for i in range(200):
    s = socket.socket(); s.setblocking(False)
    s.connect_ex(('10.0.0.1', 80)); held.append(s)
u.settimeout(10)
u.sendto(struct.pack('>HHHHHH', 7, 0x100, 1, 0, 0, 0) + b'\x02ok\x00' + struct.pack('>HH', 1, 1), ('127.0.0.53', 53))
r, _ = u.recvfrom(600)
print('answered', r[3] & 15)
