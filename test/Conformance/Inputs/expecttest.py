"""Stand-in for the ``expecttest`` package, which Debian does not ship but
``torch.testing._internal.common_utils`` imports. The conformance harness
only reads PyTorch's op and module databases, never expect-tests."""

import unittest

ACCEPT = False


class TestCase(unittest.TestCase):
    pass
