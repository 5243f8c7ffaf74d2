package idtext

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	if got := Quote("conversation-42"); got != `"conversation-42"` {
		t.Errorf("short id: %s", got)
	}
	long := strings.Repeat("y", 1<<20)
	q := Quote(long)
	if len(q) > 150 || !strings.HasPrefix(q, `"yyyy`) || !strings.Contains(q, "1048576 bytes") {
		t.Errorf("long id quoted as %s (%d bytes)", q, len(q))
	}
	if Quote(long+"a") == Quote(long+"b") {
		t.Error("two ids of one prefix quote alike")
	}
	odd := strings.Repeat("é", 40) + "\x00\xff"
	if q := Quote(odd); len(q) > 150 || !strings.Contains(q, "é") {
		t.Errorf("multi-byte id quoted as %s", q)
	}
}
