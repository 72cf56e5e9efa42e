// String work, in a second module so that the bundle mixes sources.
export function buildSentence(words: number, seed: number): string {
  const parts: string[] = [];
  let state = seed;
  for (let i = 0; i < words; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    parts.push(String.fromCharCode(97 + (state % 26)).repeat(1 + (state % 7)));
  }
  return parts.join(" ");
}

export function countVowelsSlowly(text: string): number {
  let vowels = 0;
  for (let round = 0; round < 20; round++) {
    for (const ch of text) {
      if ("aeiou".includes(ch)) {
        vowels++;
      }
    }
  }
  return vowels;
}
