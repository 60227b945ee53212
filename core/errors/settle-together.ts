/**
 * Two queries of one request, run together: both settle before either failure is thrown, so no
 * query outlives its request and no rejection goes unhandled (an unhandled one ends the process).
 */
export async function settleTogether<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
}
