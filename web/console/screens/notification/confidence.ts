/** The normal quantile of a two-sided 95% interval. */
const z95 = 1.959964;

/**
 * The Wilson score interval of a rate at 95% confidence: where the true rate lies, given `part` of `whole`. Unlike the
 * rate plus or minus a normal error it stays within 0 to 1 and holds for the few sends of an early test.
 */
export function wilsonInterval(part: number, whole: number): [number, number] | null {
  if (whole === 0) return null;
  const share = part / whole;
  const z2 = z95 * z95;
  const centre = share + z2 / (2 * whole);
  const spread = z95 * Math.sqrt((share * (1 - share)) / whole + z2 / (4 * whole * whole));
  const scale = 1 + z2 / whole;
  return [Math.max(0, (centre - spread) / scale), Math.min(1, (centre + spread) / scale)];
}
