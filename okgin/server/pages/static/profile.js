// The profile page: a refused form's message is inside that form (profile.py's Refusal); bring
// the form into view and put the focus on its first field, so the player reads why beside it.
const said = document.querySelector('form [role="alert"]');
if (said) {
  const form = said.closest('form');
  const field = form.querySelector('input:not([type="hidden"]), button');
  said.scrollIntoView({ block: 'center' });
  field?.focus({ preventScroll: true });
}
