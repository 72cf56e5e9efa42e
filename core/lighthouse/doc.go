// Package lighthouse owns Lighthouse-style refinement of sampled calls. A sampled profile only
// says that a function began or ended somewhere between two samples; Lighthouse narrows each such
// boundary to the edges of the trace events ("known tasks") around it. This package does the same,
// event for event as Lighthouse 13.5.0's cpu-profile-model.js, on every thread that has tasks:
//
//   - Collect gathers a process's Profile and ProfileChunk events the way Lighthouse does (keyed
//     by id alone, a repeated Profile replacing the earlier one).
//   - KnownTasks builds a thread's task tree from its trace events like main-thread-tasks.js,
//     repairs and failures included.
//   - Synthesize makes the naive B/E events with the window each boundary could lie in, and
//     Refine narrows them against the known tasks with one binary search per event.
//   - FromTrace runs all of it on a loaded trace; CallsOf pairs a profile's events into calls, and
//     Merge or RefinedTiming swaps those calls into the threads' tracks for the timeline.
package lighthouse
