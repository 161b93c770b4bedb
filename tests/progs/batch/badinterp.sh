#!/nonexistent/interpreter
# SPDX-License-Identifier: MIT
