// The workload profiled by gen.mjs, in a page and in Node. Each step is a named function doing a
// fixed amount of work, so the same run twice gives the same functions with similar times; with
// slow set, hashStrings does eight times its work, the deliberate regression the tests look for.
function buildRecords(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ id: i, key: 'k' + ((i * 7919) % n).toString(36), value: (i * 31) % 1000 });
  }
  return out;
}

function sortRecords(records) {
  return records.slice().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function hashStrings(records, rounds) {
  let h = 2166136261;
  for (let r = 0; r < rounds; r++) {
    for (const rec of records) {
      const s = rec.key;
      for (let i = 0; i < s.length; i++) {
        h ^= s.charCodeAt(i);
        h = Math.imul(h, 16777619);
      }
    }
  }
  return h >>> 0;
}

function sumColumns(records, rounds) {
  let total = 0;
  for (let r = 0; r < rounds; r++) {
    for (const rec of records) total += (rec.value * (r + 1)) % 97;
  }
  return total;
}

function runWork(slow) {
  let check = 0;
  for (let pass = 0; pass < 6; pass++) {
    const records = buildRecords(20000);
    const sorted = sortRecords(records);
    check ^= hashStrings(sorted, slow ? 80 : 10);
    check ^= sumColumns(sorted, 40);
  }
  return check;
}

if (typeof module !== 'undefined') module.exports = { runWork };
