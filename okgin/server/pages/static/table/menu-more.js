// The open Menu's row of links on a phone scrolls sideways; its edges say when more can be
// swiped (docs/web.md#on-a-phone): `data-more` on the row is "right", "left" or "left right"
// for the sides with links out of sight, and table.css fades those edges.
const SLACK = 1; // px: a row scrolled to within a pixel of its end is at its end

function mark(nav) {
  const right = nav.scrollLeft + nav.clientWidth < nav.scrollWidth - SLACK;
  const left = nav.scrollLeft > SLACK;
  const more = [left && "left", right && "right"].filter(Boolean).join(" ");
  if ((nav.dataset.more || "") !== more) nav.dataset.more = more;
}

export function markMenuRow(nav) {
  const update = () => mark(nav);
  nav.addEventListener("scroll", update, { passive: true });
  addEventListener("resize", update);
  new ResizeObserver(update).observe(nav);
  update();
}
