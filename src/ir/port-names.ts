/**
 * Output port `names`: a set of tensor names joined with ',', a comma inside a name escaped as
 * `\,`. Read as OpenVINO reads it (measured on 2026.4, which reads back what its serializer
 * writes): split at each ',' that is not escaped, `\,` read as ',' (any other '\' is itself),
 * empty names dropped, nothing trimmed — " sp " is a name with its spaces (XML has already made
 * tab, CR and LF written as such into spaces; written as references they stay what they are).
 */
export function splitPortNames(s: string): string[] {
  // One name (the common case): no splitting, no set.
  if (!s.includes(',')) return s === '' ? [] : [s];
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && s[i + 1] === ',') {
      cur += ',';
      i++;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  const names = out.filter((n) => n !== '');
  return [...new Set(names)].sort(compareNames);
}

/** Byte-wise order of the UTF-8 forms, as std::sort on std::string orders them. */
export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}

/** The serializer's form: the set sorted, commas escaped, joined with ','. */
export function joinPortNames(names: readonly string[]): string {
  return [...new Set(names.filter((n) => n !== ''))].sort(compareNames).map((n) => n.replace(/,/g, '\\,')).join(',');
}
