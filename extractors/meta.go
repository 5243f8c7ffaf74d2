package extractors

// Metadata keys set by the built-in extractors. Values are strings; lists
// (of paths) are joined with "\n". Extractors of your own may use any other
// keys; the digest reads these.
const (
	// MetaKind is the kind of operation: one of the Kind* values.
	MetaKind = "kind"
	// MetaCommand is the shell command line (first line, shortened).
	MetaCommand = "command"
	// MetaExitCode is the exit status of a command, when known.
	MetaExitCode = "exit_code"
	// MetaFilesRead lists the files the call read ("\n"-joined).
	MetaFilesRead = "files_read"
	// MetaFilesModified lists the files the call created or changed ("\n"-joined).
	MetaFilesModified = "files_modified"
	// MetaError is the main error seen in the output, such as
	// "ValueError at foo.py:12" or the first error line.
	MetaError = "error"
	// MetaLines is the output size in lines.
	MetaLines = "lines"
	// MetaBytes is the output size in bytes.
	MetaBytes = "bytes"
	// MetaPattern is the search pattern of a search.
	MetaPattern = "pattern"
)

// Values of [MetaKind].
const (
	KindRead   = "read"
	KindWrite  = "write"
	KindSearch = "search"
	KindExec   = "exec"
	KindTest   = "test"
	KindGit    = "git"
	KindHTTP   = "http"
	KindJSON   = "json"
	KindSQL    = "sql"
	KindOther  = "other"
)

// More metadata keys set by the built-in extractors.
const (
	// MetaExceptions lists the exceptions raised in the output
	// ("\n"-joined), such as "ValueError at foo.py:12: bad value".
	MetaExceptions = "exceptions"
	// MetaDefines lists the top-level definitions of a file read
	// ("\n"-joined).
	MetaDefines = "defines"
	// MetaPath is the primary file or directory of the call.
	MetaPath = "path"
	// MetaLogErrors lists the error lines of a plain-text log the output
	// holds ("\n"-joined, the most recent last, from the level word on:
	// "ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007"): the tool
	// succeeded, what it returned reports errors.
	MetaLogErrors = "log_errors"
)

// Test run metadata set by the shell extractor.
const (
	// MetaTests is a test run's summary line, such as "3 failed, 12 passed".
	MetaTests = "tests"
	// MetaFailedTests lists the failing tests ("\n"-joined).
	MetaFailedTests = "failed_tests"
)

// Metadata of the paths a call named, by what was done to them, besides
// [MetaFilesRead] and [MetaFilesModified] ("\n"-joined, as written in the
// call). The digest keeps every one of them.
const (
	// MetaFilesSearched lists the files and folders a search looked in
	// (grep PATTERN FILE, rg PATTERN DIR, find DIR -name X, search_dir X DIR).
	MetaFilesSearched = "files_searched"
	// MetaFilesListed lists the folders (or files) listed: ls DIR, tree
	// DIR, du DIR, find DIR without a name test.
	MetaFilesListed = "files_listed"
	// MetaFilesTested lists the test files and test ids given to a test
	// runner, as written: "tests/test_x.py::test_y".
	MetaFilesTested = "files_tested"
	// MetaFilesRun lists the scripts run and the files given to other
	// commands: "python reproduce.py", "./build.sh", "make -C sub".
	MetaFilesRun = "files_run"
)
