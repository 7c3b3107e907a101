"""A passkey in software for the HTTP tests: a P-256 key answering WebAuthn's create() and get()
with the JSON a browser's page sends (attestation "none"), for any relying party and origin."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class SoftPasskey:
    """One credential: its id, its key, its sign count, and the user handle it was made for."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = os.urandom(16)
        self.sign_count = 0
        self.user_handle: str | None = None

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return bytes(cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                                  -3: numbers.y.to_bytes(32, "big")}))

    @staticmethod
    def _client_data(kind: str, options: dict[str, Any], origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": options["challenge"], "origin": origin,
                           "crossOrigin": False}).encode()

    def created(self, options: dict[str, Any], origin: str, rp_id: str | None = None) -> dict[str, Any]:
        """The answer to navigator.credentials.create(options) on a page at ``origin``."""
        rp = rp_id or options["rp"]["id"]
        self.user_handle = options["user"]["id"]
        data = (hashlib.sha256(rp.encode()).digest() + bytes([UP | UV | AT])
                + self.sign_count.to_bytes(4, "big") + bytes(16) + len(self.id).to_bytes(2, "big")
                + self.id + self._cose())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
        return {"id": b64(self.id), "rawId": b64(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64(self._client_data("webauthn.create", options, origin)),
                             "attestationObject": b64(attestation)},
                "clientExtensionResults": {}}

    def asserted(self, options: dict[str, Any], origin: str, rp_id: str | None = None,
                 sign_count: int | None = None) -> dict[str, Any]:
        """The answer to navigator.credentials.get(options), signed, its sign count one more
        than the last (or ``sign_count``)."""
        self.sign_count = self.sign_count + 1 if sign_count is None else sign_count
        rp = rp_id or options["rpId"]
        data = hashlib.sha256(rp.encode()).digest() + bytes([UP | UV]) + self.sign_count.to_bytes(4, "big")
        client = self._client_data("webauthn.get", options, origin)
        signature = self.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        response = {"clientDataJSON": b64(client), "authenticatorData": b64(data),
                    "signature": b64(signature)}
        if self.user_handle is not None:
            response["userHandle"] = self.user_handle
        return {"id": b64(self.id), "rawId": b64(self.id), "type": "public-key", "response": response,
                "clientExtensionResults": {}}
