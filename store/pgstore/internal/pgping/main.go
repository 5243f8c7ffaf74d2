// Command pgping exits 0 when the PostgreSQL server its argument (a DSN)
// names answers a query, 1 otherwise, printing why without the DSN's
// password. .ci/run uses it to make sure the store tests run rather than
// skip.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/agentcompact/compact/store/pgstore"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pgping DSN")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := pgstore.New(ctx, os.Args[1], pgstore.WithoutMigration())
	if err == nil {
		err = s.Pool().Ping(ctx)
		s.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgping:", err)
		os.Exit(1)
	}
	fmt.Println("pgping: the server answers")
}
