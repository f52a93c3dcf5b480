"""Challenge flows against the Swift SDK, with the Python peer as the ACS (run from jose_peer.py).

The peer writes each CRes as an ACS would (the 2.3.1 fields of Tables A.20/A.26, or 2.2.0 ones), encrypts it with
jwcrypto, and gives the answers a cardholder would give (the `threeds pay --answers` format). The Swift tool
validates each CRes as the SDK does, answers through the SDK's form state and CReq builder, and encrypts the CReqs.
The peer then decrypts every CReq with jwcrypto and checks it against its own reading of the tables
(v231-reference §1 and Table 1.1): the identifiers and counter, oobAppURLInd in every 2.3.1 CReq and never
before, no action in the first CReq, and exactly the action, consent and status fields the answer calls for.
A CRes the SDK must refuse is checked for the exact error code and field.

Every CReq's messageExtension is checked too, against the peer's own reading of the bridging reference: each entry
has exactly name, id, criticalityIndicator and data within their lengths; Bridging (A000000802-004) appears only in
2.2.0, only when the SDK can open apps and sent threeDSRequestorAppURL, non-critical, announced in the first CReq
(version 1.0, oobAppURLInd 01) and again only in the continue CReq after the cardholder came back from the bank's
app the CRes linked through it (oobContinue 02, in the version the ACS answered with); nowhere else.
"""

import json
import os
import subprocess
import uuid

from jwcrypto import jwe, jwk
from jwcrypto.common import json_encode

from peer_common import b64u, unb64u

SERVER_TRANS_ID = str(uuid.uuid4())
SDK_TRANS_ID = str(uuid.uuid4())

ACTION_FIELDS = [
    "challengeDataEntry", "challengeDataEntryTwo", "challengeNoEntry", "resendChallenge", "challengeAddCode",
    "oobContinue", "challengeHTMLDataEntry", "infoContinueIndicator", "challengeCancel", "oobAppStatus",
    "trustListDataEntry", "deviceBindingDataEntry", "whitelistingDataEntry",
]


def cres(version: str, acs_trans_id: str, counter: int, fields: dict) -> dict:
    message = {
        "threeDSServerTransID": SERVER_TRANS_ID, "acsTransID": acs_trans_id, "sdkTransID": SDK_TRANS_ID,
        "acsCounterAtoS": f"{counter:03d}", "messageType": "CRes", "messageVersion": version,
        "challengeCompletionInd": "N",
    }
    message.update(fields)
    return message


def text_231(**extra) -> dict:
    screen = {
        "acsUiType": "01", "challengeInfoHeader": "Confirm", "challengeInfoText": "Enter the **code**.",
        "submitAuthenticationLabel": "Verify", "challengeEntryBox": {"challengeDataEntryLabel": "Code"},
    }
    screen.update(extra)
    return screen


def oob(app: bool, **extra) -> dict:
    screen = {
        "acsUiType": "04", "challengeInfoHeader": "Approve", "challengeInfoText": "Approve in your app.",
        "oobContinueLabel": "Done",
    }
    if app:
        screen.update({"oobAppURL": "https://bank.example/approve", "oobAppLabel": "Open the app"})
    screen.update(extra)
    return screen


HTML_OOB_PAGE = (
    '<html><body><p>Approve in your app.</p><form action="HTTPS://EMV3DS/challenge" method="post">'
    '<button type="submit" name="action" value="approved">I have approved</button></form></body></html>'
)


BRIDGING_ID = "A000000802-004"


def bridging_cres(version="1.0", url="https://bank.example/approve?t=1", label="Open bank app", critical=False,
                  beside=False) -> dict:
    """A 2.2.0 out-of-band screen whose Bridging extension links the bank's app."""
    data = {"challengeData": {"oobAppURL": url, "oobAppLabel": label}}
    entry = {"name": "Bridging", "id": BRIDGING_ID, "criticalityIndicator": critical, "data": data}
    if beside:
        entry["version"] = version
    else:
        data["version"] = version
    return oob(False, messageExtension=[entry])


def bridging_creq(version: str, returned: bool) -> list:
    """The Bridging entry the SDK must send, as the bridging reference describes it."""
    challenge_data = {"oobAppURLInd": "01"}
    if returned:
        challenge_data["oobContinue"] = "02"
    return [{"name": "Bridging", "id": BRIDGING_ID, "criticalityIndicator": False,
             "data": {"version": version, "challengeData": challenge_data}}]


def extension_shape_ok(value) -> bool:
    if not isinstance(value, list) or not value or len(value) > 10:
        return False
    for entry in value:
        if not isinstance(entry, dict) or set(entry) != {"name", "id", "criticalityIndicator", "data"}:
            return False
        if not (isinstance(entry["name"], str) and 0 < len(entry["name"]) <= 64):
            return False
        if not (isinstance(entry["id"], str) and 0 < len(entry["id"]) <= 64):
            return False
        if not isinstance(entry["criticalityIndicator"], bool) or not isinstance(entry["data"], dict):
            return False
        if len(json.dumps(entry["data"], separators=(",", ":"))) > 8059:
            return False
    return True


def flows():
    """(id, version, opens_apps, steps) with steps = [(screen fields, enc, answers, expected CReq fields)]; a step
    whose expected value is ("error", code, detail) is a CRes the SDK must refuse."""
    two_boxes = text_231(challengeEntryBoxTwo={"challengeDataEntryLabel": "Year", "challengeDataEntryLengthMax": "04"})
    consents = text_231(trustListInfoText="Trust?", deviceBindingInfoText="Bind?", togglePositionInd="01")
    select_add = {
        "acsUiType": "02", "challengeInfoHeader": "H", "challengeInfoText": "T", "challengeInfoLabel": "Pick",
        "submitAuthenticationLabel": "Go", "challengeSelectInfo": [{"a": "A"}, {"b": "B"}],
        "challengeAddLabel": "Another way",
    }
    info = {
        "acsUiType": "07", "challengeInfoHeader": "Before", "challengeInfoText": "Read **this**.",
        "infoContinueLabel": "Continue",
    }
    html_oob = {"acsUiType": "06", "acsHTML": b64u(HTML_OOB_PAGE.encode()), "oobAppURL": "https://bank.example/a"}
    text_220 = {
        "acsUiType": "01", "challengeInfoHeader": "H", "challengeInfoText": "T", "challengeInfoLabel": "Code",
        "submitAuthenticationLabel": "Verify", "whitelistingInfoText": "Trust?",
    }
    submit = {"action": "submit", "text": "123456"}
    return [
        ("two-boxes", "2.3.1", True, [
            (two_boxes, "A128CBC-HS256", [{"action": "submit", "text": "111111", "text2": "2000"}],
             {"challengeDataEntry": "111111", "challengeDataEntryTwo": "2000"}),
            (two_boxes, "A128GCM", [{"action": "submit", "text": "", "text2": "1990"}],
             {"challengeDataEntryTwo": "1990"}),
            (two_boxes, "A128CBC-HS256", [{"action": "submit", "text": ""}], {"challengeNoEntry": "Y"}),
        ]),
        ("consents-answered", "2.3.1", True, [
            (consents, "A128CBC-HS256", [dict(submit, whitelist=True, deviceBinding=False)],
             {"challengeDataEntry": "123456", "trustListDataEntry": "Y", "deviceBindingDataEntry": "N"}),
        ]),
        ("consents-untouched-then-cancel", "2.3.1", True, [
            (dict(consents, resendInformationLabel="Again"), "A128CBC-HS256", [{"action": "resend"}],
             {"resendChallenge": "Y", "trustListDataEntry": "N", "deviceBindingDataEntry": "N"}),
            (consents, "A128CBC-HS256", [{"action": "cancel"}], {"challengeCancel": "01"}),
        ]),
        ("additional-code", "2.3.1", True, [
            (select_add, "A128CBC-HS256", [{"action": "additional"}], {"challengeAddCode": "Y"}),
            (oob(False), "A128GCM", [{"action": "continue"}], {"oobContinue": "01"}),
        ]),
        ("oob-app-returned", "2.3.1", True, [
            (oob(True), "A128CBC-HS256", [{"action": "openApp"}], {"oobContinue": "02"}),
        ]),
        ("oob-app-failed", "2.3.1", True, [
            (oob(True), "A128CBC-HS256", [{"action": "openApp", "result": "failed"}, {"action": "continue"}],
             {"oobContinue": "01", "oobAppStatus": "01"}),
        ]),
        ("oob-no-opener", "2.3.1", False, [
            (oob(False), "A128CBC-HS256", [{"action": "continue"}], {"oobContinue": "01"}),
        ]),
        ("oob-app-link-unasked", "2.3.1", False, [
            (oob(True), "A128CBC-HS256", [{"action": "continue"}], ("error", "203", "oobAppURL")),
        ]),
        ("html-oob-button", "2.3.1", True, [
            (html_oob, "A128CBC-HS256", [{"action": "submit", "html": {"fields": {}, "button": "I have approved"}}],
             {"oobContinue": "01", "challengeHTMLDataEntry": "action=approved"}),
        ]),
        ("html-oob-app", "2.3.1", True, [
            (html_oob, "A128GCM", [{"action": "openApp"}], {"oobContinue": "02"}),
        ]),
        ("information", "2.3.1", True, [
            (info, "A128CBC-HS256", [{"action": "continue"}], {"infoContinueIndicator": True}),
            (text_231(), "A128CBC-HS256", [submit], {"challengeDataEntry": "123456"}),
        ]),
        ("oob-2.2.0", "2.2.0", True, [
            (oob(False), "A128CBC-HS256", [{"action": "continue"}], {"oobContinue": True}),
        ]),
        ("whitelisting-2.2.0", "2.2.0", True, [
            (text_220, "A128GCM", [dict(submit, whitelist=True)],
             {"challengeDataEntry": "123456", "whitelistingDataEntry": "Y"}),
        ]),
        ("reserved-ui-type", "2.3.1", True, [(dict(text_231(), acsUiType="08"), "A128CBC-HS256", [], ("error", "207", "acsUiType"))]),
        ("text-without-entry-box", "2.3.1", True, [
            ({k: v for k, v in text_231().items() if k != "challengeEntryBox"}, "A128CBC-HS256", [],
             ("error", "201", "challengeEntryBox")),
        ]),
        ("masking-without-toggle", "2.3.1", True, [
            (text_231(challengeEntryBox={"challengeDataEntryLabel": "C", "challengeDataEntryMasking": "Y"}),
             "A128CBC-HS256", [], ("error", "201", "challengeEntryBox.challengeDataEntryToggle")),
        ]),
        ("reserved-keyboard", "2.3.1", True, [
            (text_231(challengeEntryBox={"challengeDataEntryLabel": "C", "challengeDataEntryKeyboardType": "09"}),
             "A128CBC-HS256", [], ("error", "207", "challengeEntryBox.challengeDataEntryKeyboardType")),
        ]),
        ("info-in-2.2.0", "2.2.0", True, [(info, "A128CBC-HS256", [], ("error", "203", "acsUiType"))]),
        ("bridging-returned", "2.2.0", True, [
            (bridging_cres(), "A128CBC-HS256", [{"action": "openApp"}],
             {"oobContinue": True, "messageExtension": bridging_creq("1.0", returned=True)}),
        ]),
        ("bridging-v2-beside-critical", "2.2.0", True, [
            (bridging_cres(version="2.0", beside=True, critical=True), "A128GCM", [{"action": "openApp"}],
             {"oobContinue": True, "messageExtension": bridging_creq("2.0", returned=True)}),
        ]),
        ("bridging-failed-open", "2.2.0", True, [
            (bridging_cres(), "A128CBC-HS256", [{"action": "openApp", "result": "failed"}, {"action": "continue"}],
             {"oobContinue": True}),
        ]),
        ("bridging-http-link", "2.2.0", True, [
            (bridging_cres(url="http://bank.example/a"), "A128CBC-HS256", [{"action": "continue"}],
             {"oobContinue": True}),
        ]),
        ("bridging-no-opener", "2.2.0", False, [
            (bridging_cres(), "A128CBC-HS256", [{"action": "continue"}], {"oobContinue": True}),
        ]),
        ("bridging-then-text", "2.2.0", True, [
            (dict(text_220, messageExtension=bridging_cres()["messageExtension"]), "A128CBC-HS256",
             [dict(submit, whitelist=False)], {"challengeDataEntry": "123456", "whitelistingDataEntry": "N"}),
        ]),
        ("bridging-other-critical", "2.2.0", True, [
            (oob(False, messageExtension=[
                bridging_cres()["messageExtension"][0],
                {"name": "X", "id": "A000000004-001", "criticalityIndicator": True, "data": {}}]),
             "A128CBC-HS256", [], ("error", "202", "A000000004-001")),
        ]),
        ("bridging-critical-2.3.1", "2.3.1", True, [
            (text_231(messageExtension=bridging_cres(critical=True)["messageExtension"]), "A128CBC-HS256", [],
             ("error", "202", BRIDGING_ID)),
        ]),
    ]


def run(tool, material_path, material, work, tally):
    cbc_key = jwk.JWK(kty="oct", k=b64u(material["keys"]["cbc"]))
    gcm_key = jwk.JWK(kty="oct", k=b64u(material["keys"]["gcm"]))
    material["json"]["flow_server_trans_id"] = SERVER_TRANS_ID
    material["json"]["flow_sdk_trans_id"] = SDK_TRANS_ID
    with open(material_path, "w") as handle:
        json.dump(material["json"], handle)
    specs = flows()
    flow_input = []
    for flow_id, version, opens_apps, steps in specs:
        acs_trans_id = str(uuid.uuid4())
        encoded = []
        for counter, (fields, enc, answers, _) in enumerate(steps):
            token = jwe.JWE(
                json.dumps(cres(version, acs_trans_id, counter, fields)).encode(),
                json_encode({"alg": "dir", "enc": enc, "kid": acs_trans_id}),
            )
            token.add_recipient(cbc_key if enc == "A128CBC-HS256" else gcm_key)
            encoded.append({"cres": token.serialize(compact=True), "enc": enc, "answers": answers})
        flow_input.append(
            {"id": flow_id, "version": version, "opens_apps": opens_apps, "acs_trans_id": acs_trans_id, "steps": encoded}
        )
    flows_path, out_path = os.path.join(work, "flows.json"), os.path.join(work, "flows-out.json")
    with open(flows_path, "w") as handle:
        json.dump(flow_input, handle)
    subprocess.run([tool, "flows", material_path, flows_path, out_path], check=True)
    with open(out_path) as handle:
        results = {r["id"]: r for r in json.load(handle)}

    checked = 0
    for (flow_id, version, opens_apps, steps), sent in zip(specs, flow_input):
        result = results.get(flow_id)
        if result is None:
            tally.check(False, f"flow {flow_id}: no result from Swift")
            continue
        expected_error = next((s[3] for s in steps if isinstance(s[3], tuple) and s[3][0] == "error"), None)
        got_error = result["error"]
        if expected_error:
            tally.check(
                got_error == {"code": expected_error[1], "detail": expected_error[2]},
                f"flow {flow_id}: expected Erro {expected_error[1]} {expected_error[2]}, Swift gave {got_error}",
            )
        else:
            tally.check(got_error is None, f"flow {flow_id}: Swift refused a valid CRes: {got_error}")
        creqs = []
        for counter, compact in enumerate(result["creqs"]):
            token = jwe.JWE()
            token.deserialize(compact, key=cbc_key)
            header = token.jose_header
            tally.check(
                header.get("alg") == "dir" and header.get("enc") == "A128CBC-HS256"
                and header.get("kid") == sent["acs_trans_id"],
                f"flow {flow_id} CReq {counter}: header {header}",
            )
            iv = unb64u(compact.split(".")[2])
            tally.check(iv == bytes(15) + bytes([counter]), f"flow {flow_id} CReq {counter}: IV is not the counter IV")
            creqs.append(json.loads(token.payload))
        # The first CReq, then one per step answered; a refused CRes ends the flow.
        answered = next((i for i, s in enumerate(steps) if isinstance(s[3], tuple)), len(steps))
        expected_count = 1 + answered
        tally.check(len(creqs) == expected_count, f"flow {flow_id}: {len(creqs)} CReqs, expected {expected_count}")
        for counter, creq in enumerate(creqs):
            checked += 1
            common_ok = (
                creq.get("messageType") == "CReq" and creq.get("messageVersion") == version
                and creq.get("sdkCounterStoA") == f"{counter:03d}" and creq.get("acsTransID") == sent["acs_trans_id"]
                and creq.get("sdkTransID") == SDK_TRANS_ID and creq.get("threeDSServerTransID") == SERVER_TRANS_ID
            )
            tally.check(common_ok, f"flow {flow_id} CReq {counter}: identifiers, type, version or counter wrong: {creq}")
            if version == "2.3.1":
                tally.check(
                    creq.get("oobAppURLInd") == ("01" if opens_apps else "02"),
                    f"flow {flow_id} CReq {counter}: oobAppURLInd {creq.get('oobAppURLInd')}",
                )
            else:
                tally.check("oobAppURLInd" not in creq, f"flow {flow_id} CReq {counter}: oobAppURLInd before 2.3.1")
            actions = {name: creq[name] for name in ACTION_FIELDS if name in creq}
            extension = creq.get("messageExtension")
            if extension is not None:
                tally.check(extension_shape_ok(extension), f"flow {flow_id} CReq {counter}: messageExtension {extension}")
            if counter == 0:
                tally.check(actions == {}, f"flow {flow_id}: the first CReq states an action: {actions}")
                # Announced in the first 2.2.0 CReq exactly when the SDK can open apps and has an app URL.
                announce = (
                    bridging_creq("1.0", returned=False)
                    if version == "2.2.0" and opens_apps and creq.get("threeDSRequestorAppURL") else None
                )
                tally.check(extension == announce, f"flow {flow_id} CReq 0: messageExtension {extension}, expected {announce}")
            else:
                expected = dict(steps[counter - 1][3])
                expected_extension = expected.pop("messageExtension", None)
                tally.check(actions == expected, f"flow {flow_id} CReq {counter}: sent {actions}, expected {expected}")
                tally.check(
                    extension == expected_extension,
                    f"flow {flow_id} CReq {counter}: messageExtension {extension}, expected {expected_extension}",
                )
    print(f"challenge flows: {len(specs)} flows, {checked} CReqs checked")

