"""The Split-SDK Server's signed content (`sdkServerSignedContent`) against jwcrypto, both ways (run from jose_peer.py).

1. Python -> Swift: the peer signs bodies with jwcrypto (ES256 with the EC signer, PS256 with the RSA signer, each
   with its certificate in x5c) and plants the refusals a directory server must make: a flipped signature, a server
   ID nobody registered, an x5c naming another certificate than the registered one, and a body that lacks a member. The Swift tool verifies each against its registered certificates ("PEER-EC",
   "PEER-RSA") and must accept the good ones with the same body and refuse each bad one with its code.
2. Swift -> Python: the Swift tool signs one body with the EC signer; the peer checks the header (ES256, x5c holding
   exactly the signer's certificate), verifies the signature with jwcrypto and the certificate's key, reads the body,
   and checks that its own tampering of the token is detected.

The body's member names are this project's choice (docs/split-sdk.md): the AReq's element names.
"""

import base64
import json
import os
import subprocess

from cryptography.hazmat.primitives import serialization
from jwcrypto import jwk, jws
from jwcrypto.common import json_encode

from peer_common import unb64u


def body(server_id: str, **changes) -> dict:
    value = {
        "sdkReferenceNumber": "3DS_LOA_SDK_PEER_020100_00002",
        "sdkSignatureTimestamp": "20261128113000",
        "sdkTransID": "0f8e6f3a-9a7b-4c2d-8e1f-5a6b7c8d9e0f",
        "splitSdkServerID": server_id,
    }
    value.update(changes)
    return {name: member for name, member in value.items() if member is not None}


def sign(payload: dict, key, certificate, alg: str) -> str:
    x5c = [base64.b64encode(certificate.public_bytes(serialization.Encoding.DER)).decode()]
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    token = jws.JWS(json.dumps(payload, separators=(",", ":")).encode())
    token.add_signature(jwk.JWK.from_pem(pem), alg=alg, protected=json_encode({"alg": alg, "x5c": x5c}))
    return token.serialize(compact=True)


def flip_signature(compact: str) -> str:
    head, payload, signature = compact.split(".")
    raw = bytearray(unb64u(signature))
    raw[3] ^= 1
    return ".".join([head, payload, base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")])


def cases(keys):
    ec_signer, ec_key = keys["ec_signer"], keys["ec_signer_key"]
    rsa_signer, rsa_key = keys["rsa_signer"], keys["rsa_signer_key"]
    good_ec = body("PEER-EC")
    good_rsa = body("PEER-RSA")
    return [
        ("es256", sign(good_ec, ec_key, ec_signer, "ES256"), "ok", good_ec),
        ("ps256", sign(good_rsa, rsa_key, rsa_signer, "PS256"), "ok", good_rsa),
        ("flipped-signature", flip_signature(sign(good_ec, ec_key, ec_signer, "ES256")), "invalidSignature", None),
        ("unknown-server", sign(body("NOBODY"), ec_key, ec_signer, "ES256"), "unknownServer", None),
        # Signed with the registered key, but x5c names another certificate.
        ("other-certificate", sign(good_rsa, rsa_key, keys["other_signer"], "PS256"), "invalidCertificate", None),
        ("missing-member", sign(body("PEER-EC", sdkTransID=None), ec_key, ec_signer, "ES256"), "invalidPayload", None),
    ]


def run(tool, material_path, material, work, tally):
    keys = material["keys"]
    planned = cases(keys)
    cases_path, out_path = os.path.join(work, "split-cases.json"), os.path.join(work, "split-out.json")
    with open(cases_path, "w") as handle:
        json.dump([{"id": case_id, "compact": compact} for case_id, compact, _, _ in planned], handle)
    subprocess.run([tool, "split-signed-content", material_path, cases_path, out_path], check=True)
    with open(out_path) as handle:
        out = json.load(handle)
    results = {result["id"]: result for result in out["results"]}
    for case_id, _, expect, expected_body in planned:
        result = results.get(case_id, {})
        if expect == "ok":
            tally.check(result.get("outcome") == "ok" and result.get("body") == expected_body,
                        f"split {case_id}: Swift gave {result}")
        else:
            tally.check(result.get("outcome") == "rejected" and result.get("code") == expect,
                        f"split {case_id}: expected {expect}, Swift gave {result}")
    print(f"split signed content, python -> swift: {len(planned)} tokens checked")

    produced = out["produced"]
    compact = produced["compact"]
    header = json.loads(unb64u(compact.split(".")[0]))
    signer_der = keys["ec_signer"].public_bytes(serialization.Encoding.DER)
    tally.check(set(header) == {"alg", "x5c"} and header["alg"] == "ES256", f"split: Swift header {header}")
    tally.check(header.get("x5c") == [base64.b64encode(signer_der).decode()], "split: x5c is not [the signer]")
    public = keys["ec_signer"].public_key().public_bytes(serialization.Encoding.PEM,
                                                         serialization.PublicFormat.SubjectPublicKeyInfo)
    key = jwk.JWK.from_pem(public)
    for token, should_pass in [(compact, True), (flip_signature(compact), False)]:
        verified = jws.JWS()
        try:
            verified.deserialize(token)
            verified.verify(key, alg="ES256")
            ok = json.loads(verified.payload) == produced["body"]
        except Exception:  # noqa: BLE001 - any failure is a failed verification
            ok = False
        tally.check(ok == should_pass, f"split: jwcrypto verification of Swift's token gave {ok}, expected {should_pass}")
    tally.check(produced["body"].get("splitSdkServerID") == "PEER-EC", f"split: Swift body {produced['body']}")
    print("split signed content, swift -> python: 1 token checked")
