#!/usr/bin/env python3
"""Writes the seed corpora under Fuzz/Corpus from the tests' known-answer vectors and fixtures.

Run once when the vectors change; the seeds are committed. Fuzzing works on a copy under .build-fuzz/.
"""
import base64
import json
import os

ROOT = os.path.join(os.path.dirname(__file__), "..")
VECTORS = json.load(open(os.path.join(ROOT, "Tests/ThreeDS2JOSETests/Resources/jose-known-answers.json")))


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


IDS = {"threeDSServerTransID": "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
       "acsTransID": "d7c1ee99-9478-44a6-b1f2-391e29c6b340", "sdkTransID": "b2385523-a66c-4907-ac3c-91848e8c0067"}
PAGE = ("<html><body><p>Enter the code</p><form method=post action=\"https://emv3ds/challenge\">"
        "<input type=hidden name=txid value=1><input name=otp><input type=checkbox name=r value=yes>"
        "<select name=s><option value=a>A</option><option value=b selected>B</option></select>"
        "<button name=action value=verify>Verify</button></form>"
        "<a href=\"https://emv3ds/challenge?action=resend\">Send a new code</a></body></html>")


def cres(**fields):
    base = dict(IDS, acsCounterAtoS="000", messageType="CRes", messageVersion="2.2.0", challengeCompletionInd="N")
    base.update(fields)
    return json.dumps(base)


SEEDS = {
    "json": [json.dumps(VECTORS["emvco_sdk_acs_channel"]), '{"a":[1,2.5e-3,true,null,"\\ud83d\\ude00"]}', "[]"],
    "base64": [VECTORS["rfc7520_5_6_dir_a128gcm"]["compact"].split(".")[3], "AA", "AAA", "AAAA", "QUJD"],
    "jwk": [json.dumps(dict(VECTORS["emvco_sdk_acs_channel"]["acs_ephemeral_public_jwk"])),
            json.dumps({"kty": "EC", "crv": "P-256", **{k: VECTORS["rfc7515_a3_es256"]["public_jwk"][k] for k in "xy"}})],
    "jwe": [VECTORS["rfc7520_5_6_dir_a128gcm"]["compact"],
            ".".join([b64u(b'{"alg":"dir","enc":"A128CBC-HS256","kid":"acs"}'), "", b64u(bytes(16)), b64u(bytes(32)),
                      b64u(bytes(16))])],
    "jws": [VECTORS["rfc7515_a3_es256"]["compact"],
            ".".join([b64u(b'{"alg":"PS256","x5c":["AAAA"]}'), b64u(b'{"acsURL":"https://a"}'), b64u(bytes(256))])],
    "cres": [cres(acsUiType="01", challengeInfoHeader="H", challengeInfoText="T", challengeInfoLabel="L",
                  submitAuthenticationLabel="S", whitelistingInfoText="Trust?"),
             cres(acsUiType="05", acsHTML=b64u(PAGE.encode())),
             cres(challengeCompletionInd="Y", transStatus="Y"),
             json.dumps({"messageType": "Erro", "errorCode": "305", "errorComponent": "A"})],
    "html": [PAGE, "<form><input name=a value=1><p><<<>>&&&"],
    "form": [bytes([0, 0x12, 0x32, 0x06]), bytes([2, 0x07, 0x17, 0x09]), bytes([5, 0x0F, 0x09, 0x0C, 0x06])],
}

for target, seeds in SEEDS.items():
    directory = os.path.join(ROOT, "Fuzz", "Corpus", target)
    os.makedirs(directory, exist_ok=True)
    for index, seed in enumerate(seeds):
        data = seed if isinstance(seed, bytes) else seed.encode()
        with open(os.path.join(directory, f"seed-{index}"), "wb") as handle:
            handle.write(data)
print("seeds written")
