// Numeric work: a class with methods, so that method names are mapped too.
export class Matrix {
  constructor(readonly size: number, readonly cells: Float64Array) {}

  static identity(size: number): Matrix {
    const cells = new Float64Array(size * size);
    for (let i = 0; i < size; i++) cells[i * size + i] = 1;
    return new Matrix(size, cells);
  }

  multiplyMatrices(other: Matrix): Matrix {
    const n = this.size;
    const out = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let sum = 0;
        for (let k = 0; k < n; k++) {
          sum += this.cells[i * n + k] * other.cells[k * n + j];
        }
        out[i * n + j] = sum + 1e-9;
      }
    }
    return new Matrix(n, out);
  }
}

export function countPrimesBelow(limit: number): number {
  let count = 0;
  for (let candidate = 2; candidate < limit; candidate++) {
    let isPrime = true;
    for (let divisor = 2; divisor * divisor <= candidate; divisor++) {
      if (candidate % divisor === 0) {
        isPrime = false;
        break;
      }
    }
    if (isPrime) count++;
  }
  return count;
}
