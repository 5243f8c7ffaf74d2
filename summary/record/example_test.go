package record_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentcompact/compact/summary/record"
)

// A record as a store persists it: its JSON form, and a copy to change
// without touching the stored one.
func ExampleRecord() {
	rec := record.Record{ID: "s1", Depth: 1, Summary: "Fixed the flaky server test.",
		KeyPoints: []string{"port 8080 was busy"}, OriginalMessageIDs: []string{"m1", "m2"}, Mode: record.ModeRule}
	b, err := json.Marshal(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	c := rec.Clone()
	c.KeyPoints[0] = "changed"
	fmt.Println(rec.KeyPoints[0])
	// Output:
	// {"id":"s1","depth":1,"timestamp":"0001-01-01T00:00:00Z","summary":"Fixed the flaky server test.","keyPoints":["port 8080 was busy"],"context":{"participants":null,"decisions":null,"actionItems":null,"unresolved":null,"domainEntities":null},"originalMessageIds":["m1","m2"],"tokenEstimate":0,"mode":"rule"}
	// port 8080 was busy
}

// MapTexts rewrites every text of a record and nothing else (ids, mode).
func ExampleRecord_MapTexts() {
	rec := record.Record{ID: "s1", Summary: "a", KeyPoints: []string{"b"},
		Context: record.Context{ActionItems: []record.ActionItem{{Owner: "c", Task: "d"}}}}
	up := rec.MapTexts(func(s string) string { return "<" + s + ">" })
	fmt.Println(up.ID, up.Summary, up.KeyPoints, up.Context.ActionItems)
	// Output:
	// s1 <a> [<b>] [{<c> <d> <>}]
}
