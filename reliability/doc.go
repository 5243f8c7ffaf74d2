// Package reliability holds the cross-package reliability and security
// suite of compact: it drives the engine, the extractors, the summary
// parser, the LLM summarizer, middleware.Wrap and memory.Memory (with its
// SQLite store) together, the way agents use them, and checks the design's
// invariants from outside through invariant oracles (budget I1, tool pairs
// I2, system messages first and verbatim I3, latest user message kept I4,
// input never mutated and nothing lost I5, no text promoted to the system
// role): fuzz targets seeded from the real trajectories in ../testdata, a
// soak with summarizer and store faults and a goroutine and heap leak
// check, SIGKILL crash tests of SQLite-backed compaction, the bad-input
// catalogue (README.md), a seeded-secret corpus that must never leak into
// anything compaction derives, and prompt-injection checks. It has no API:
// everything is in its tests, which use only exported names.
//
// # Running
//
// The normal run is part of the module's tests and takes a few minutes of
// CPU under the race detector on two cores:
//
//	go test -race ./reliability
//
// Fuzz targets (a short run each, as CI does; drop -fuzztime for a long run):
//
//	go test -run '^$' -fuzz '^FuzzCompactTrajectory$' -fuzztime 10s ./reliability
//	go test -run '^$' -fuzz '^FuzzSessionState$'      -fuzztime 10s ./reliability
//	go test -run '^$' -fuzz '^FuzzSummaryReply$'      -fuzztime 10s ./reliability
//	go test -run '^$' -fuzz '^FuzzExtractorSecrets$'  -fuzztime 10s ./reliability
//	go test -run '^$' -fuzz '^FuzzWrapTrajectory$'    -fuzztime 10s ./reliability
//	go test -run '^$' -fuzz '^FuzzMemoryTurns$'       -fuzztime 10s ./reliability
//
// The long soak, 1,000 sessions x 200 turns through one compactor and
// 200 x 100 turns through memory on one SQLite file (the normal run does
// 40 x 50 and 6 x 24), with the flag or the environment variable:
//
//	go test -race -run 'TestSoak' -timeout 0 -v ./reliability -soak
//	COMPACT_SOAK=1 go test -race -run 'TestSoak' -timeout 0 -v ./reliability
//
// COMPACT_SOAK_SESSIONS and COMPACT_SOAK_TURNS (engine soak),
// COMPACT_SOAK_MEMORY_SESSIONS and COMPACT_SOAK_MEMORY_TURNS (memory soak)
// set other sizes. The long crash run kills 200 child processes at random
// points (the normal run: 6); COMPACT_CRASH_POINTS sets another number:
//
//	go test -race -run 'TestCrashRandomKill' -timeout 0 -v ./reliability -crash
//
// With -short the soaks and the crash test are smaller still.
package reliability
