// The profile's passkeys: add one (navigator.credentials.create) and sign in with one
// (navigator.credentials.get), through the server's /account/passkeys/ JSON endpoints.
// Each step is told in the status line. Without WebAuthn in the browser the buttons stay hidden.
import { $ } from "./dom.js";

const status = $("passkey-status");

const toBytes = (text) => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};
const toText = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const say = (text) => { status.textContent = text; };

async function post(path, body) {
  const token = document.querySelector('input[name="csrf"]');
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin", body: JSON.stringify(body || {}),
    headers: { "Content-Type": "application/json", "X-CSRF-Token": token ? token.value : "" },
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

// The browser said no: the person closed the dialog, or no passkey was there.
const refused = (error) => (error && error.name === "NotAllowedError"
  ? "No passkey was used (the request was closed or timed out)."
  : error && error.name === "InvalidStateError"
    ? "This device already holds a passkey for your account."
    : `The passkey did not work: ${error.message}`);

function encoded(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toText(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toText(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toText(r.authenticatorData);
    response.signature = toText(r.signature);
    if (r.userHandle) response.userHandle = toText(r.userHandle);
  }
  return { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || undefined };
}

async function add(button) {
  button.disabled = true;
  try {
    say("Asking the server for a new passkey request…");
    const options = await post("/account/passkeys/register/options");
    options.challenge = toBytes(options.challenge);
    options.user.id = toBytes(options.user.id);
    options.excludeCredentials = (options.excludeCredentials || [])
      .map((c) => ({ ...c, id: toBytes(c.id) }));
    say("Follow your browser's steps to make the passkey…");
    const credential = await navigator.credentials.create({ publicKey: options });
    say("Checking the new passkey with the server…");
    const answer = await post("/account/passkeys/register",
      { name: $("passkey-name").value, credential: encoded(credential) });
    say(`${answer.ok[0].toUpperCase()}${answer.ok.slice(1)}.`);
    location.assign(answer.to);
  } catch (error) {
    say(refused(error));
  } finally {
    button.disabled = false;
  }
}

async function signIn(button) {
  button.disabled = true;
  try {
    say("Asking the server for a sign-in request…");
    const options = await post("/account/passkeys/sign-in/options");
    options.challenge = toBytes(options.challenge);
    options.allowCredentials = (options.allowCredentials || [])
      .map((c) => ({ ...c, id: toBytes(c.id) }));
    say("Choose your passkey in your browser's window…");
    const credential = await navigator.credentials.get({ publicKey: options });
    say("Checking the passkey with the server…");
    const answer = await post("/account/passkeys/sign-in", { credential: encoded(credential) });
    say("Signed in with your passkey.");
    location.assign(answer.to);
  } catch (error) {
    say(refused(error));
  } finally {
    button.disabled = false;
  }
}

if (status && window.PublicKeyCredential && navigator.credentials) {
  for (const [row, button, act] of [["passkey-add", "passkey-create", add],
    ["passkey-sign-in-row", "passkey-sign-in", signIn]]) {
    if (!$(row)) continue;
    $(row).hidden = false;
    $(button).addEventListener("click", () => act($(button)));
  }
}
