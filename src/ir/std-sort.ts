/**
 * libstdc++'s std::sort (introsort: median-of-three quicksort down to runs of 16, heapsort past
 * the depth limit, then a final insertion sort), step for step. It is not stable: OpenVINO's
 * serializer sorts edges with it by source layer, so to write edges in exactly the order OpenVINO
 * does, equal keys must be permuted exactly as it permutes them.
 */
export function stdSort<T>(a: T[], less: (x: T, y: T) => boolean): void {
  const n = a.length;
  if (n < 2) return;
  introsortLoop(a, 0, n, 2 * Math.floor(Math.log2(n)), less);
  finalInsertionSort(a, 0, n, less);
}

const THRESHOLD = 16;

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

function introsortLoop<T>(a: T[], first: number, last: number, depth: number, less: (x: T, y: T) => boolean): void {
  while (last - first > THRESHOLD) {
    if (depth === 0) {
      heapSort(a, first, last, less);
      return;
    }
    depth--;
    const mid = first + ((last - first) >> 1);
    moveMedianToFirst(a, first, first + 1, mid, last - 1, less);
    const cut = unguardedPartition(a, first + 1, last, first, less);
    introsortLoop(a, cut, last, depth, less);
    last = cut;
  }
}

function moveMedianToFirst<T>(a: T[], result: number, x: number, y: number, z: number, less: (x: T, y: T) => boolean): void {
  if (less(a[x]!, a[y]!)) {
    if (less(a[y]!, a[z]!)) swap(a, result, y);
    else if (less(a[x]!, a[z]!)) swap(a, result, z);
    else swap(a, result, x);
  } else if (less(a[x]!, a[z]!)) swap(a, result, x);
  else if (less(a[y]!, a[z]!)) swap(a, result, z);
  else swap(a, result, y);
}

function unguardedPartition<T>(a: T[], first: number, last: number, pivot: number, less: (x: T, y: T) => boolean): number {
  for (;;) {
    while (less(a[first]!, a[pivot]!)) first++;
    last--;
    while (less(a[pivot]!, a[last]!)) last--;
    if (!(first < last)) return first;
    swap(a, first, last);
    first++;
  }
}

function unguardedLinearInsert<T>(a: T[], i: number, less: (x: T, y: T) => boolean): void {
  const val = a[i]!;
  let next = i - 1;
  while (less(val, a[next]!)) {
    a[i] = a[next]!;
    i = next;
    next--;
  }
  a[i] = val;
}

function insertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  for (let i = first + 1; i < last; i++) {
    const val = a[i]!;
    if (less(val, a[first]!)) {
      for (let k = i; k > first; k--) a[k] = a[k - 1]!;
      a[first] = val;
    } else unguardedLinearInsert(a, i, less);
  }
}

function finalInsertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  if (last - first > THRESHOLD) {
    insertionSort(a, first, first + THRESHOLD, less);
    for (let i = first + THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, less);
  } else insertionSort(a, first, last, less);
}

/** std::__adjust_heap on [first, first+len) (hole at `hole`, placing `value`). */
function adjustHeap<T>(a: T[], first: number, hole: number, len: number, value: T, less: (x: T, y: T) => boolean): void {
  const top = hole;
  let second = hole;
  while (second < Math.floor((len - 1) / 2)) {
    second = 2 * (second + 1);
    if (less(a[first + second]!, a[first + second - 1]!)) second--;
    a[first + hole] = a[first + second]!;
    hole = second;
  }
  if ((len & 1) === 0 && second === Math.floor((len - 2) / 2)) {
    second = 2 * (second + 1);
    a[first + hole] = a[first + second - 1]!;
    hole = second - 1;
  }
  // std::__push_heap
  let parent = Math.floor((hole - 1) / 2);
  while (hole > top && less(a[first + parent]!, value)) {
    a[first + hole] = a[first + parent]!;
    hole = parent;
    parent = Math.floor((hole - 1) / 2);
  }
  a[first + hole] = value;
}

function heapSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  const len = last - first;
  if (len >= 2) {
    for (let parent = Math.floor((len - 2) / 2); ; parent--) {
      adjustHeap(a, first, parent, len, a[first + parent]!, less);
      if (parent === 0) break;
    }
  }
  for (let end = last; end - first > 1;) {
    end--;
    const value = a[end]!;
    a[end] = a[first]!;
    adjustHeap(a, first, 0, end - first, value, less);
  }
}
