/**
 * A country's flag as an SVG image (flag-icons, served at /flags/{code}.svg: ADR 0022), drawn
 * beside the country's name: the name says it, so the image is decorative (empty alt).
 */
export function Flag({ code }: { code: string | undefined }) {
  if (!code) return null;
  return (
    <>
      <img className="flag" src={`/flags/${code}.svg`} alt="" width={20} height={15} decoding="async" />{' '}
    </>
  );
}
