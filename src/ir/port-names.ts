/**
 * Output port `names`: a set of tensor names joined with ',', a comma inside a name escaped as
 * `\,`. OpenVINO splits on ',' and glues back pieces that ended in '\'; each name is trimmed.
 */
export function splitPortNames(s: string): string[] {
  // One name (the common case): no splitting, no set.
  if (!s.includes(',')) {
    const t = s.trim();
    return t === '' ? [] : [t];
  }
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
  const names = out.map((n) => n.trim()).filter((n) => n !== '');
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
