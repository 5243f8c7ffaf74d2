package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScanDiff(t *testing.T) {
	d := scanDiff("diff --git a/x.go b/x.go\nindex 1..2 100644\n--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,3 @@\n-a\n+b\n+c\n ctx\ndiff --git a/y.go b/y.go\n--- a/y.go\n+++ b/y.go\n@@ -1 +0,0 @@\n-gone\n")
	assert.Equal(t, []string{"x.go", "y.go"}, d.files)
	assert.Equal(t, 2, d.totalAdd)
	assert.Equal(t, 2, d.totalDel)
	assert.Equal(t, []string{"Diff: 2 files, +2 -2", "Files: x.go (+2 -1), y.go (+0 -1)"}, d.facts())
	assert.Nil(t, scanDiff("nothing here").facts())
}
