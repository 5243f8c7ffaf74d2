package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestReplicasExample(t *testing.T) {
	dsn := os.Getenv("COMPACT_POSTGRES_DSN")
	if dsn == "" {
		dsn = defaultDSN
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Skipf("no PostgreSQL server answers at COMPACT_POSTGRES_DSN (default %s); the example needs one", defaultDSN)
	}
	conn.Close(ctx)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-dsn", dsn, "-session", "example-test-" + time.Now().Format("150405.000000")}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	s := out.String()
	compacted := regexp.MustCompile(`replica ([AB]): .*✂ compacted here \(trigger, mode llm, 1 summarizer call`).FindAllStringSubmatch(s, -1)
	if len(compacted) < 2 {
		t.Fatalf("want several compactions:\n%s", s)
	}
	by := map[string]bool{}
	for _, m := range compacted {
		by[m[1]] = true
	}
	if !by["A"] || !by["B"] {
		t.Errorf("both replicas compact in turn:\n%s", s)
	}
	if !strings.Contains(s, "↺ reused replica A's compaction") || !strings.Contains(s, "↺ reused replica B's compaction") {
		t.Errorf("each replica reuses the other's compaction:\n%s", s)
	}
}
